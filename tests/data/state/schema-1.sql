-- A state database of schema version 1, as papers wrote it before tags, notes and saved searches.
-- Generated from the code at that version (index/state/db.py MIGRATIONS had one entry) by opening a
-- StateStore, merging stars and read marks with fixed times (tombstones included), setting the reader's
-- session keys unkeyed, then `sqlite3 .dump` (Connection.iterdump). Never edit: the migration test
-- (tests/unit/test_state_migration.py) loads it and checks nothing is lost on upgrade.
PRAGMA user_version = 1;
BEGIN TRANSACTION;
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO "meta" VALUES('commit_seq',2);
CREATE TABLE paper_state (
            id TEXT PRIMARY KEY,
            starred INTEGER, starred_at REAL,
            read INTEGER, read_at REAL
        ) WITHOUT ROWID;
INSERT INTO "paper_state" VALUES('aaaaaaaaaaaa',1,1700000000.25,1,1700000100.5);
INSERT INTO "paper_state" VALUES('bbbbbbbbbbbb',0,1700000200.0,1,1700000300.0);
INSERT INTO "paper_state" VALUES('cccccccccccc',1,1700000400.125,0,1700000500.0);
INSERT INTO "paper_state" VALUES('dddddddddddd',NULL,NULL,1,1700000600.0);
INSERT INTO "paper_state" VALUES('eeeeeeeeeeee',1,1700000700.0,NULL,NULL);
CREATE TABLE session (
            key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at REAL NOT NULL
        ) WITHOUT ROWID;
INSERT INTO "session" VALUES('filter','"unread"',1700001000.0);
INSERT INTO "session" VALUES('order','"listing"',1700001000.0);
INSERT INTO "session" VALUES('query','"diffusion is:unread"',1700001000.0);
INSERT INTO "session" VALUES('selected','"cccccccccccc"',1700001000.0);
INSERT INTO "session" VALUES('theme','"nord"',1700001000.0);
CREATE TABLE undo_entry (
            group_id INTEGER NOT NULL, paper_id TEXT NOT NULL, field TEXT NOT NULL,
            old_value INTEGER, old_at REAL, new_value INTEGER NOT NULL, new_at REAL NOT NULL
        );
INSERT INTO "undo_entry" VALUES(1,'aaaaaaaaaaaa','starred',NULL,NULL,1,1700000000.25);
INSERT INTO "undo_entry" VALUES(1,'aaaaaaaaaaaa','read',NULL,NULL,1,1700000100.5);
INSERT INTO "undo_entry" VALUES(1,'bbbbbbbbbbbb','starred',NULL,NULL,0,1700000200.0);
INSERT INTO "undo_entry" VALUES(1,'bbbbbbbbbbbb','read',NULL,NULL,1,1700000300.0);
INSERT INTO "undo_entry" VALUES(1,'cccccccccccc','starred',NULL,NULL,1,1700000400.125);
INSERT INTO "undo_entry" VALUES(1,'cccccccccccc','read',NULL,NULL,0,1700000500.0);
INSERT INTO "undo_entry" VALUES(1,'dddddddddddd','read',NULL,NULL,1,1700000600.0);
INSERT INTO "undo_entry" VALUES(2,'eeeeeeeeeeee','starred',NULL,NULL,1,1700000700.0);
CREATE TABLE undo_group (
            id INTEGER PRIMARY KEY AUTOINCREMENT, created_at REAL NOT NULL, label TEXT NOT NULL
        );
INSERT INTO "undo_group" VALUES(1,1700000801.0,'import fixture');
INSERT INTO "undo_group" VALUES(2,1700000802.0,'import second');
CREATE INDEX undo_entry_group ON undo_entry (group_id);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('undo_group',2);
COMMIT;

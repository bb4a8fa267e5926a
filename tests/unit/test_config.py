"""The TOML config files: site file under user file, key by key; bad input becomes one-line notices."""

from __future__ import annotations

from pathlib import Path

import pytest

from index import paths
from index.config import DEFAULT_MARK_READ_DELAY, Config, load_config, resolve_index_dir, resolve_listings


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _lines(config: Config) -> list[str]:
    return [str(notice) for notice in config.notices]


def test_no_files_gives_defaults_and_no_notices(tmp_path: Path) -> None:
    config = load_config(user_file=tmp_path / "nope.toml", site_file=tmp_path / "none.toml")
    assert config == Config()
    assert config.mark_read_delay == DEFAULT_MARK_READ_DELAY
    assert config.notices == () and config.files == ()


def test_user_file_overrides_site_file_key_by_key(tmp_path: Path) -> None:
    site = _write(
        tmp_path / "etc" / "config.toml",
        'listings = ["/srv/papers/listings"]\nindex_dir = "/srv/papers/index"\ntheme = "nord"\n'
        'keymap = { star = "f", quit = "x" }\n',
    )
    user = _write(
        tmp_path / "home" / "config.toml", 'theme = "gruvbox"\nmark_read_delay = 0\nkeymap = { star = "*" }\n'
    )
    config = load_config(user_file=user, site_file=site)
    assert config.listings == (Path("/srv/papers/listings"),)
    assert config.index_dir == Path("/srv/papers/index")
    assert config.theme == "gruvbox"
    assert config.mark_read_delay == 0.0
    # Tables are replaced whole, like every other key: a user keymap is the user's complete choice.
    assert dict(config.keymap) == {"star": "*"}
    assert config.files == (site, user)
    assert config.notices == ()


def test_a_single_listing_string_and_relative_paths(tmp_path: Path) -> None:
    site = _write(tmp_path / "etc" / "config.toml", 'listings = "lists"\ndata_dir = "~/papers-data"\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert config.listings == (tmp_path / "etc" / "lists",)
    assert config.data_dir == Path("~/papers-data").expanduser()


def test_unknown_key_is_one_line_naming_file_and_key(tmp_path: Path) -> None:
    site = _write(tmp_path / "config.toml", 'colour = "red"\ntheme = "nord"\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert config.theme == "nord"
    [line] = _lines(config)
    assert line.startswith(f"{site}: unknown key 'colour' (ignored")
    assert "\n" not in line


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ('mark_read_delay = "soon"', 'mark_read_delay = "soon" is not a number of seconds; using 2.0'),
        ("mark_read_delay = -1", "mark_read_delay = -1 is not a number of seconds >= 0; using 2.0"),
        ("mark_read_delay = true", "mark_read_delay = true is not a number of seconds; using 2.0"),
        ("mark_read_delay = nan", "mark_read_delay = NaN is not a number of seconds >= 0; using 2.0"),
        ("listings = 3", "listings = 3 is not a path or a non-empty list of paths; ignored"),
        ("listings = []", "listings = [] is not a path or a non-empty list of paths; ignored"),
        ('index_dir = ""', 'index_dir = "" is not a directory path; using the default'),
        ("theme = 7", "theme = 7 is not a theme name; using the default theme"),
        ('keymap = "f"', 'keymap = "f" is not a table of id = "key"; ignored'),
        ('space_at_end = "later"', "space_at_end = \"later\" is not one of 'next', 'unread'; using 'next'"),
    ],
)
def test_bad_values_fall_back_with_a_notice(tmp_path: Path, toml: str, expected: str) -> None:
    site = _write(tmp_path / "config.toml", toml + "\n")
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert _lines(config) == [f"{site}: {expected}"]
    defaults = Config()
    assert (config.listings, config.index_dir, config.theme, config.mark_read_delay, dict(config.keymap)) == (
        defaults.listings,
        defaults.index_dir,
        defaults.theme,
        defaults.mark_read_delay,
        {},
    )


def test_space_at_end_takes_next_or_unread(tmp_path: Path) -> None:
    site = _write(tmp_path / "config.toml", 'space_at_end = "Unread"\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert config.space_at_end == "unread" and config.notices == ()
    assert Config().space_at_end == "next"


def test_a_bad_user_value_keeps_the_site_value(tmp_path: Path) -> None:
    site = _write(tmp_path / "site.toml", "mark_read_delay = 5\n")
    user = _write(tmp_path / "user.toml", 'mark_read_delay = "later"\n')
    config = load_config(user_file=user, site_file=site)
    assert config.mark_read_delay == 5.0
    assert len(config.notices) == 1 and str(user) in _lines(config)[0]


def test_one_bad_keymap_entry_keeps_the_others(tmp_path: Path) -> None:
    site = _write(tmp_path / "config.toml", 'keymap = { star = "f", quit = 3 }\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert dict(config.keymap) == {"star": "f"}
    assert _lines(config) == [f'{site}: keymap.\'quit\' = 3 is not a key name like "f" or "ctrl+s"; ignored']


def test_invalid_toml_names_file_and_line_and_uses_defaults(tmp_path: Path) -> None:
    site = _write(tmp_path / "config.toml", 'theme = "nord"\n\nmark_read_delay = = 3\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert config.theme is None  # the whole file is ignored, not half of it
    [notice] = config.notices
    assert notice.line == 3
    assert str(notice).startswith(f"{site}:3: not valid TOML: ")
    assert "\n" not in str(notice)


def test_binary_file_is_a_notice_not_a_traceback(tmp_path: Path) -> None:
    site = _write(tmp_path / "config.toml", b'theme = "a"\n\xff\xfe\x00junk')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert _lines(config) == [f"{site}:2: not UTF-8 text, so not TOML; file ignored, using defaults"]


def test_escape_sequences_in_values_are_not_echoed_raw(tmp_path: Path) -> None:
    site = _write(tmp_path / "config.toml", 'mark_read_delay = "\\u001b]0;pwned\\u0007"\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    [line] = _lines(config)
    assert "\x1b" not in line and "\x07" not in line
    assert "\\u001b]0;pwned\\u0007" in line


def test_unreadable_path_is_a_notice(tmp_path: Path) -> None:
    directory = tmp_path / "config.toml"
    directory.mkdir()
    config = load_config(user_file=tmp_path / "absent.toml", site_file=directory)
    [line] = _lines(config)
    assert line.startswith(f"{directory}: cannot read config file")


def test_papers_config_env_names_the_user_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    explicit = _write(tmp_path / "mine.toml", 'theme = "mine"\n')
    _write(paths.user_config_file(), 'theme = "default-user"\n')
    _write(paths.site_config_file(), 'theme = "site"\nmark_read_delay = 1\n')
    monkeypatch.setenv("PAPERS_CONFIG", str(explicit))
    config = load_config()
    assert (config.theme, config.mark_read_delay) == ("mine", 1.0)
    assert config.files == (paths.site_config_file(), explicit)


def test_papers_config_naming_a_missing_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERS_CONFIG", str(tmp_path / "typo.toml"))
    config = load_config()
    assert _lines(config) == [
        f"{tmp_path / 'typo.toml'}: no such config file (named by $PAPERS_CONFIG); using defaults"
    ]


def test_default_locations_follow_xdg(monkeypatch: pytest.MonkeyPatch) -> None:
    _write(paths.user_config_file(), 'theme = "user"\n')
    _write(paths.site_config_file(), 'theme = "site"\nindex_dir = "/srv/idx"\n')
    config = load_config()
    assert (config.theme, config.index_dir) == ("user", Path("/srv/idx"))


def test_precedence_flag_then_env_then_config_then_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _write(tmp_path / "config.toml", 'listings = "/srv/l"\nindex_dir = "/srv/i"\n')
    config = load_config(user_file=tmp_path / "absent.toml", site_file=site)
    assert resolve_listings(None, config) == [Path("/srv/l")]
    assert resolve_index_dir(None, config) == Path("/srv/i")
    monkeypatch.setenv("PAPERS_LISTINGS", "/env/l")
    monkeypatch.setenv("PAPERS_INDEX_DIR", "/env/i")
    assert resolve_listings(None, config) == [Path("/env/l")]
    assert resolve_index_dir(None, config) == Path("/env/i")
    assert resolve_listings([Path("/flag/l")], config) == [Path("/flag/l")]
    assert resolve_index_dir(Path("/flag/i"), config) == Path("/flag/i")
    assert resolve_listings(None, Config()) == [Path("/env/l")]
    monkeypatch.delenv("PAPERS_LISTINGS")
    monkeypatch.delenv("PAPERS_INDEX_DIR")
    assert resolve_listings(None, Config()) == [paths.bundled_seeds_dir()]
    assert resolve_index_dir(None, Config()) == paths.default_index_dir()

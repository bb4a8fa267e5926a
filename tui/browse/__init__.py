"""The browse screen and its parts, one module per job.

`screen.py` composes the search bar (`search_bar.py`), the list (`paper_list.py`), the detail pane
(`paper_detail.py`) and the status line in `panes.py`'s layout, runs the searches and owns the view state.
The parts it owns do one kind of work each and tell it what changed with the messages in `messages.py`:
`marking.py` stars and read marks, `organising.py` tags, notes and saved searches, `discovering.py` the facet
panel (`facet_view.py`) and triage (`triage.py`), `similar_view.py` more like this, `index_build.py` the
first build. `results.py` words what the library answered. Nothing here imports `screen.py`.
"""

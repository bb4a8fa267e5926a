"""A headline model learned from real titles (issue 25), in development beside the rules that make the
reader's headlines today (`index.headline.synthesis`).

It is not the reader's yet: on held-out venues it beats the rules on ROUGE, but a blind grade of its
headlines beside theirs still prefers the rules (see `bench/bench_headline_quality.py` and the issue's
closing note). `pipeline.headline` is the entry point and its docstring names the stages; `train.py`
makes the weights (`model.npz`) from the corpus and records how they do (`model.json`).

Not compiled with mypyc (`hatch_build.py` compiles `index/headline/*.py` only): it is numpy over batches.
"""

"""Every word list the headline pipeline consults, in one place, so a reader sees what is fixed by hand.

The model learns which words make a title; these lists only say what a title may not look like: which
words cannot end it (a dangling article or preposition), which cannot start it (a clause's connective),
what marks the sentence that states the contribution, and which capitalised words are too common to be a
paper's own name.
"""

from __future__ import annotations

import re
from typing import Final


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DANGLING: Final = _words(
    """
    a an the of for to in on with and or by from via as at into onto over under than
    """
)
"""An article, preposition or conjunction: a real title cut to fit never ends on one ("Learning to…")."""

CANNOT_END: Final = DANGLING | _words(
    """
    a an the of for to in on with and or by from via as at into onto over under than then is are was
    were be been being that which whose whom who where when while this these those its their our we us
    it they using based such both either each per without within across between among through toward
    towards upon about against not no nor but if so can may might will would should could must has have
    had do does did also very more most less least them itself themselves instead whether rather
    before after since until because unlike like beyond despite therefore thus hence however
    """
)
"""A headline ending in one of these has been cut mid-phrase ("... a method for")."""

SUBJECTS: Final = _words("we it they this these which who")
"""After one of these comes its verb ("we | exhibit ...", "this | reframes ..."): no headline starts there."""

ADVERB_ENDING: Final = "ly"
NOT_ADVERBS: Final = _words("only family anomaly apply supply reply poly monopoly assembly italy july")
"""Words ending in "ly" that are no adverb; an adverb ("rigorously") ends no title."""

NEVER_INSIDE: Final = _words(
    """
    we our us ours ourselves i
    is are was were been has have had would could should can may might will must
    that which whose where such called named dubbed termed coined existing used given this these those
    """
)
"""Words a span with which is a clause of the abstract, not a title: the authors speaking ("data, we propose
X"), a verb's auxiliary ("point clouds are samples of"), a relative clause ("a model that learns"), the
abstract pointing at itself ("such", "existing", "called", "building on this connection"). Measured on
the development venues' headlines before these were barred: "such" was in 60 of them and in none of their
11,521 titles, "called" 45 / 0, "existing" 30 / 0, "used" 27 / 1, "that" 206 / 15, "which" 68 / 6, "has"
27 / 2, "been" 16 / 1, "given" 31 / 3, "this" 31 / 11; "is" and "are" 308 / 180, nearly always a sentence
cut out whole."""

DETERMINERS: Final = _words(
    "a an the this these those its their his her such each every some any both either"
)
"""Before one of these the phrase goes on ("evaluate | their"): a headline does not end right before it."""

CANNOT_START: Final = _words(
    """
    of for to in on with and or by from via as at into onto than then is are was were be been being that
    which whose whom who where when while its their our we us it they also but nor so if can may might
    will would should could must has have had do does did not
    this these those such here there first then thus hence therefore however moreover furthermore
    propose introduce present develop design describe derive study show prove provide investigate analyze
    analyse explore demonstrate establish consider formulate examine identify leverage address tackle focus
    argue find observe evaluate reveal offer extend employ apply adopt achieve obtain
    """
)
"""A headline starting with one of these is the tail of a clause ("which improves ...", "of the model")."""

OPENS_A_PHRASE: Final = (
    CANNOT_START
    | CANNOT_END
    | _words(
        """
    achieve achieves allow allows apply applies are aim aims based can demonstrate demonstrates enable enables
    exhibit exhibits fail fails has have improve improves include includes is lead leads make makes
    outperform outperforms provide provides rely relies remain remains require requires show shows suffer
    suffers use uses yield yields often typically usually significantly called named dubbed termed
    """
    )
)
"""Words that start a new phrase: a headline may end right before one, or start right after one, without
cutting a noun phrase in half ("... verifiable compositional | tasks" is cut; "... models | that" is not)."""

PRAISE: Final = _words(
    """
    novel new simple efficient effective general generic unified principled powerful practical flexible
    robust scalable lightweight straightforward elegant versatile
    """
)
"""What an abstract says of its own method ("a novel | Siamese net for ..."): a headline may start right
after one, leaving the praise behind, as a title does."""

NOVELTY: Final = _words("novel new")
"""Praise no title keeps: "X, a novel Y" reads as "X: Y"."""

ENDS_BEFORE: Final = OPENS_A_PHRASE - DETERMINERS
"""Words a headline may end right before: a preposition, a conjunction, a verb, not an article."""


_DOING: Final = (
    "(?:propose|introduce|present|develop|design|describe|devise|formulate|study|investigate|show)"
)
PROPOSING: Final = re.compile(
    rf"we (?:first |further |then )?{_DOING}|this (?:paper|work|article|study) {_DOING}"
)
"""A sentence that states what the paper does: the model sees which words sit in one. Matched in lowercased,
one-spaced text, and starting with a literal so that the scan is fast."""

NAMING: Final = ("called ", "named ", "dubbed ", "termed ", "coined ", "namely ")
"""What comes right before a name the abstract gives its method ("a model, dubbed X"), in lowercased text;
found with `str.find`, many times faster here than a regex alternation."""

COMMON_CAPITALS: Final = _words(
    """
    RGB RGB-D CNN CNNs RNN RNNs GAN GANs LLM LLMs VLM VLMs MLP MLPs GNN GNNs NLP AI ML SGD MCMC PCA SVM
    SVMs API GPU GPUs CPU KL MSE MAP MLE IID LSTM LSTMs BERT GPT ImageNet COCO CIFAR MNIST SOTA SoTA RL
    DNN DNNs ViT ViTs DNA RNA MRI CT PDE PDEs ODE ODEs IoU AUC NeRF VAE VAEs LiDAR
    """
)
"""Capitalised words that name a field's common tools, not the paper's own method."""

"""Sentence shapes the headline rules read (each case is built like an abstract that needed its rule)."""

from __future__ import annotations

import pytest

from index.headline.synthesis import headline

CASES = [
    # A spelled-out name longer than half a headline, with its acronym and ", which ...": the acronym
    # leaves room for what the thing does.
    (
        "Writing a new glyph set by hand is slow. We propose a novel glyph generation framework, named "
        "Layered Stroke-aware Glyph Synthesis Network (LS-Glyph), which enables us to generate a complete "
        "glyph set from only a few samples. Experiments show gains.",
        "LS-Glyph generates a complete glyph set from only a few samples",
    ),
    # "We propose to do X ..., and develop a novel NAME (N) method": the name spelled out says nothing of
    # what it does; what is proposed in the same sentence does.
    (
        "Planning remains hard when rewards are sparse. We propose to reuse recorded trajectories to shape "
        "the search through matching visitation counts, and develop a novel Trajectory Reuse Planning (TRP) "
        "method. We show that TRP helps.",
        "TRP: reusing recorded trajectories to shape search",
    ),
    # "a novel Gauss-Newton (GN) based method": the hyphenated name qualifies "based", it names nothing.
    (
        "Slides are too large for one network. We propose to train a voting model to merge tile-level "
        "scores given by tile-level networks. Furthermore, we formulate a novel Gauss-Newton (GN) based "
        "method that locates useful tiles. Results match experts.",
        "Training a voting model to merge tile-level scores given by tile-level networks",
    ),
    # No claim names the contribution, an early sentence defines it: "Pooled-SGD is a simple extension ...".
    (
        "Noisy gradients slow training. Pooled-SGD is a simple extension to the SGD optimizer, based on "
        "pooling earlier gradients. We examine its variance and provide a comparison within a toy model.",
        "Pooled-SGD: extension to the SGD optimizer, based on pooling earlier gradients",
    ),
    # "O(r^2)" is a bound, not an aside: without its argument the line says "from O to O".
    (
        "Convolutions are slow on small devices. We propose two schemes to reduce the cost from O(r^2) "
        "to O(r), where r is the kernel size.",
        "Two schemes to reduce the cost from O(r^2) to O(r)",
    ),
    # "... model to address these problems": the problems are in a sentence the line does not show; the
    # field the first sentence names says what the model is for.
    (
        "Tone mapping aims to reproduce a standard image from a high dynamic range image. Existing methods "
        "suffer from halos and noise. We propose a hybrid layered decomposition model to address these "
        "problems. Results show gains.",
        "Hybrid layered decomposition model for tone mapping",
    ),
    # "a framework, which consists of a new X network, named ... (XN), for Y": the name names the network.
    (
        "Segmenting long videos is costly. We propose a novel video modeling framework, which consists of a "
        "new recurrent pooling network, named Recurrent Pooling Feature Network (RPFN), for predicting "
        "frame-wise scene labels, and a training strategy. Results are competitive.",
        "RPFN: recurrent pooling network for predicting frame-wise scene labels",
    ),
    # A field said in running text loses its title case ("Multi-Label"), an acronym keeps its capitals.
    (
        "Multi-Label Image Classification aims to predict a set of labels for an image. We propose GraphNet, "
        "a deep learning framework. Experiments show gains.",
        "GraphNet: deep learning framework for multi-label image classification",
    ),
    # "sign reading framework to detect and recognize road signs of arbitrary colors ...": the kind's
    # modifiers go before what it is for is cut ("framework to detect ..." says what "sign reading" did).
    (
        "Existing readers handle only straight lines of text. In this paper, we propose a novel sign "
        "reading framework to detect and recognize road signs of arbitrary colors in an end-to-end manner, "
        "using only coarse annotations for training. Following earlier work, we call the proposed sign "
        "reading framework SignDragon.",
        "SignDragon: framework to detect and recognize road signs of arbitrary colors",
    ),
    # "temporal context information": the noun names the information, and the room keeps "in video tracking".
    (
        "Detectors fail under attack. In this paper, we aim to characterize adversarial patches based on "
        "temporal context information in video tracking. We observe that consistency helps.",
        "Characterizing adversarial patches based on temporal context in video tracking",
    ),
    # A cut never ends on "aiming": its "at ..." is what it was about.
    (
        "Averaging is slow on sparse graphs. We study gossip protocols based on weighted dual averaging "
        "aiming at reducing the communication cost between distant nodes of the graph. Results confirm it.",
        "Gossip protocols based on weighted dual averaging",
    ),
]


@pytest.mark.parametrize(("abstract", "expected"), CASES)
def test_a_sentence_shape_gets_its_headline(abstract: str, expected: str) -> None:
    assert headline(abstract) == expected

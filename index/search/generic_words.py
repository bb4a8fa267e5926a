"""The words a "why" must never give and key terms never weigh: they say how a paper is written, not what it
is about, so a person shown one ("conduct", "shown", "extend", "results") as the reason two papers are alike
would not accept it. One list for "more like this" (`similar.py`) and "for you" (`profile.py`), which take
their key terms from the same `Similarity`.
"""

from __future__ import annotations

# Words of any abstract whatever its topic: they say how a paper is written, not what it is about. Stemmed
# with the index's analyzer when used, so one entry covers its inflections ("propose" is "proposed" too).
# Keep domain words out of here even when common ("network", "graph", "policy", "state", "effect",
# "confidence", "training"): idf already weighs them down where they are common, and they carry topics. Mind
# the stems: "general" would drop "generative" and "generalization" (all "gener"), "prior" "priors",
# "important" "importance", "comprehensive" "comprehension", "consistently" "consistency", "critical"
# "critic", "powerful" "power", "additional" "additive", "namely" "named".
_GENERIC = """
    ability able accuracy accurate achieve achieves across address addresses aim aims al allow allows also
    analysis application applications applied apply approach art available based benchmark best better broad
    called case cases challenge challenges challenging com compare compared comparison competitive consider
    considered contribution contributions crucial current data dataset datasets decrease demonstrate
    demonstrated despite develop developed different due easily enable enables enhance enhanced enhances
    enhancing essential et etc evaluate evaluated evaluation even exhibit exhibiting exhibits existing
    experiment experimental experiments extensive extensively final finally find finding findings finds
    first focus focuses framework fundamental furthermore github given goal good great help high highly
    however http https idea improve improved improvement improvements including increase increased increases
    increasing inherent inherently insight introduce introduced introduces key lack lacks large larger lead
    learn learning level low make makes making many method methodology methods model models moreover much
    new notably novel number obtain offer often one outperform outperforms overall paper particular
    particularly perform performance popular possible present presents prevent prevents previous previously
    problem problems promising propose proposed provide provides publicly range real recent recently remain
    remains remarkable remarkably require requires research respectively result results reveal revealing
    reveals several show shows significant significantly simple small specifically still studies study
    substantial success successful successfully superior take takes taking task tasks technique techniques
    therefore three thus towards two typically use used using various via way well whether work works www
    yet
    """
# The verbs, adverbs and nouns of academic prose that the "why" of similar papers and "for you" showed on the
# labelled sample (tests/data/similar_labelled.tsv, its papers past the first 5 of each topic, at 56k papers):
# a paper "conducts", "extends" and "tackles" whatever its topic. Their stems were checked against the
# corpus's words so none drops a topic word: not "explore" (exploration), "utilize" (utility), "consist"
# (consistency), "correspond" (correspondences), "depend" (dependency), "identify" (identifiability),
# "explain" (explainability), "exploit" (exploitation), "reason" (reasoning), "appear" (appearance),
# "aspect" (aspect-based), "effective" (effect), "efficient" (efficiency), "initial" (initialization),
# "naturally" (natural), "multiple" (multiplicative), "critical" (critic), "careful" (care), "order",
# "part", "potential", "gap", "support", "component", "receive" (receiver), "definition" (definite).
_ACADEMIC = """
    accomplish according accordingly account acquire add advances advantage advantages aid alleviate amount
    amounts appealing appropriate area argue assess assumption assumptions attempt attract avoid benefit
    benefits bring build built capability capable capture cause certain choice choices choose clear combine
    common commonly conclude conduct consequently construct contain conventional conventionally counterparts
    create deal demo describe design desirable detail details difficult difficulty directly discard discuss
    distinguish dramatically effort eliminate elucidate embark employ encompass encourage end enjoys ensure
    establish examine example examples excessive expensive explicitly extend extends extra facilitate fail
    faster fewer follow form formulate fulfill full fully gradually greatly handle higher highest highlight
    hope hurdle ignore implement implications imply importantly impose inaccurate include indiscriminately
    indispensable individual innovative innovatively insights inspired insufficient interesting intuitively
    investigate investigation involve issue issues keep kind known largest leverage literature lot lower main
    mainstream maintain major majority manner mitigate modern modification modify motivated motivation
    necessary necessitate need opportunity original overcome page paradigm phenomenon possess practical
    practice proactively problematic produce prove proven purpose purposes qualitative quantitative reduce
    rely replace retain revise rise role run sacrifice scenario scenarios scheme schemes seamlessly second
    secondly seek serve setting settings seven shown simplify simply simultaneously situation situations six
    solution solutions solve sophisticated special standard strong strongly struggle stunning suffer suggest
    suitable systematic systematically tackle tailored tend terminology terms third thousand thousands true
    type types typical undesirable unnecessary upper urgent usually variety vast whole wide widely yield
    """
# English function words beyond Whoosh's short stop list (which keeps "which", "their", "how", "under"). Not
# "no", "few", "off", "out", "next", "least": they start "no-regret", "few-shot", "off-policy",
# "out-of-distribution", "next-token", "least squares".
_FUNCTION = """
    about above after again against all almost alone along already although always am among another any
    anyone anything anyway are around back because become becomes been before behind being below beside
    besides between beyond both but cannot could did do does doing done down during each either else enough
    especially ever every except former further had has have having he hence her here hers herself him
    himself his how however i ie if indeed instead into its itself just latter less like likely made mainly
    me meanwhile might more most mostly must my myself neither never nevertheless none nor nothing now
    nowhere often once only onto other others otherwise our ours ourselves over own per perhaps quite rather
    same seem seemed seems shall she should since so some something sometimes somewhat such than their
    theirs them themselves then there thereby therein these they those though through throughout together
    too toward under unless until up upon very was were what whatever when where whereas whereby wherein
    which while who whom whose why within without would your
    """
GENERIC_WORDS = frozenset(_GENERIC.split()) | frozenset(_ACADEMIC.split()) | frozenset(_FUNCTION.split())
"""Stemmed by the index's analyzer where used, so one entry covers its inflections."""

"""The dream cycle: gate → gather → consolidate → prune → index → diary → record → merge.

``run`` drives one cycle on a ``dream/<run-id>`` branch, ``plan`` is the one planning
function that ``review``, ``run`` and ``compact`` share, ``gate`` decides whether a dream
is due (``status`` gathers what it looks at), ``vet`` leaves out (and reports) a memory
a rule cannot evaluate, ``limits`` caps a run, ``prune``,
``index`` and ``diary`` are phases of their own, ``workset``/``ordering``
are the data the phases pass on, ``trailers`` writes each operation's commit message, and
``llm_phase``/``llm_setup`` bring in a model's proposals. The subpackages ``gather`` and
``consolidate`` hold the two largest phases; what both read in a statement (candidates,
frames, duplicates, the lexicon) is in ``extract`` below them.

May import: ``extract``, ``history``, ``llm``, ``recall``, ``ruleset``, ``store``,
``gitstore``, ``dsl``, ``textsim`` and the kernel; never the API, ``integrations`` or ``cli``.
"""

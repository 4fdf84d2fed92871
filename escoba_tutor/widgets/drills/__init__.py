"""Drills: seeded exercises with instant feedback that names the mistake.

Every kind of exercise of :mod:`escoba_tutor.exercises` (so a printed worksheet with the same number is the same
exercise) has a view of its own in this package, inside the frame every drill shares (:mod:`.base`):

- ``captures``: a card to play and a table; build every capture you see, then check (:mod:`.captures`);
- ``setenta``: a pile per side; type each side's setenta, or "invalid" (:mod:`.setenta`);
- ``points``: the piles and escobas of a real deal; who gets each point (:mod:`.points`);
- ``leftover``: the end of a deal; who takes the cards left, what they add up to, does it check out;
- ``escoba_de_mano``: the four cards dealt face up; how many escobas de mano, for whom;
- ``strategy``: a position of a real game; which move would you make (judged against the expert);
- ``escobas``: every capture of a deal; each side's escobas for the score sheet;
- ``game_end``: the points before and in the last deal; who wins, or another deal;
- ``dealing``: a moment of a real game; who plays next, whether cards are dealt now, the rounds left;
- ``house_rules``: a deal's piles and points; what each side scores with a house rule switched on.

>>> drill = Drill("setenta", seed=3, lang="en")
>>> [str(a) for a in drill.model.drill.answers]
['invalid (no bastos)', '64']
>>> drill.model.answers = ["53", "64"]
>>> drill.check()
>>> drill.status.message.split("\\n")[1]
'Side 1: no clubs, so the setenta is invalid.'
"""

from __future__ import annotations

from .base import Drill, DrillModel, KindView, view_class
from .setenta import INVALID_WORDS, read_setenta_answer

__all__ = ["Drill", "DrillModel", "KindView", "view_class", "read_setenta_answer", "INVALID_WORDS"]

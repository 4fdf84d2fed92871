"""Seeded exercises: the same seed gives the same position on every machine, so a whole class (or a printed
worksheet) gets the same exercise. Each exercise carries its full answer, computed by the engine, and a ``check``
that says what is right and what is wrong, as data (the widgets put it into words).

Each kind of exercise is one file of :mod:`.kinds`, listed by :mod:`.registry`; :mod:`.worksheet` prints them.
Seeds are whole numbers from 0 to ``MAX_SEED``; a position depends only on the kind, the seed and the rules.

>>> drill = make_drill("setenta", 3)
>>> [str(a) for a in drill.answers]
['invalid (no bastos)', '64']
>>> drill.check(0, None).ok, drill.check(1, 63).mistake
(True, 'other')
"""

from .common import MAX_SEED, NOBODY, Answer, capture_key
from .kind import DrillKind, WorksheetPart
from .kinds.captures import CaptureDrill, CaptureDrillCheck, capture_drill
from .kinds.dealing import DEAL_NOW, DealingDrill, dealing_drill
from .kinds.escoba_de_mano import EscobaDeManoDrill, escoba_de_mano_drill
from .kinds.escobas import EscobasDrill, escobas_drill
from .kinds.game_end import GameEndDrill, game_end_drill
from .kinds.house_rules import HOUSE_RULES, HouseRulesDrill, house_rules_drill
from .kinds.leftover import LeftoverDrill, leftover_drill
from .kinds.points import PRIMERA_ITEM, PointsCheck, PointsDrill, points_drill, points_items
from .kinds.setenta import SetentaCheck, SetentaDrill, check_setenta, setenta_drill
from .kinds.strategy import STRATEGY_TOLERANCE, StrategyCheck, StrategyDrill, strategy_drill
from .registry import kind, kind_names, kinds_for, make_drill, register, unregister

__all__ = ["DrillKind", "WorksheetPart", "register", "unregister", "kind", "kind_names", "kinds_for", "make_drill",
           "CaptureDrill", "SetentaDrill", "PointsDrill", "LeftoverDrill", "EscobaDeManoDrill", "StrategyDrill",
           "EscobasDrill", "GameEndDrill", "CaptureDrillCheck", "SetentaCheck", "PointsCheck", "StrategyCheck",
           "Answer", "capture_drill", "setenta_drill", "points_drill", "leftover_drill", "escoba_de_mano_drill",
           "strategy_drill", "escobas_drill", "game_end_drill", "check_setenta", "points_items", "capture_key",
           "MAX_SEED", "NOBODY", "PRIMERA_ITEM", "STRATEGY_TOLERANCE", "DealingDrill", "dealing_drill", "DEAL_NOW",
           "HouseRulesDrill", "house_rules_drill", "HOUSE_RULES"]

"""Sides, teams and players named inside sentences, each with the forms its language's grammar asks for.

A label is not pasted into a sentence as it stands on a column header: Spanish puts an article before «bando»
and contracts it after «de» and «a» («repartió el bando 2», «Setenta del bando 1», «pasa la pantalla al jugador
2»). So a message chooses the form with a format spec on its placeholder, and each language's catalog chooses
its own (the English id and the Spanish text of one message may pick different forms):

- ``{side}``: the label as a heading or at the head of a labelled line: «Bando 2», ``Side 2``;
- ``{side:the}``: inside a sentence: «el bando 2», ``side 2``; ``{side:The}`` the same, starting a sentence;
- ``{side:of}``: after "of": «del bando 2», ``of side 2``; ``{side:to}``: after "to": «al bando 2».

Every form is a catalog message, so the catalog, not the code, knows each word's article and contractions.
The student ("you") has forms too, but a sentence whose subject is the student needs its own verb («tienes», not
«tiene»): a message that may be about the student comes in two, one for "you" (see :attr:`Label.is_you`). The
student has no "of" form at all: «Montón de ti», "the pile of you" are said «Tu montón», "Your pile", so a message
that puts a side after "of" has its own form for the student, and asking the student's label for ``of`` is an
error.

>>> from escoba_tutor.text.translator import Translator
>>> es, en = Translator("es"), Translator("en")
>>> es("{side:The} reparte; la escoba es {side:of}.", side=side(es, 2))
'El bando 2 reparte; la escoba es del bando 2.'
>>> en("{side:The} deals; the escoba is {side:of}.", side=side(en, 2))
'Side 2 deals; the escoba is of Side 2.'
>>> f"{team(es, 1)} · {team(es, 1):to} · {partner(es):the} · {computer(es):of}"
'Pareja 1 · a la pareja 1 · tu compañero o compañera · del ordenador'
"""

from __future__ import annotations

from .phrases import and_list
from .translator import N_, Translator

__all__ = ["Label", "FORMS", "side", "team", "player", "computer", "partner", "you", "your_team", "computer_team",
           "named", "joined"]

#: The format specs a message may put on a label's placeholder ("" is the heading form).
FORMS = ("", "the", "The", "of", "to")

# Each kind of label's forms: (heading, in a sentence, after "of", after "to"), as English ids: the English
# catalog writes "Side 2", "Player 1" as names, capitalised everywhere, but "the computer" inside a sentence; the
# Spanish catalog adds the articles and their contractions («el bando 2», «del bando 2», «al bando 2»).
_SIDE = (N_("Side {n}"), N_("side {n}"), N_("of side {n}"), N_("to side {n}"))
_TEAM = (N_("Team {n}"), N_("team {n}"), N_("of team {n}"), N_("to team {n}"))
_PLAYER = (N_("Player {n}"), N_("player {n}"), N_("of player {n}"), N_("to player {n}"))
_COMPUTER_N = (N_("Computer {n}"), N_("computer {n}"), N_("of computer {n}"), N_("to computer {n}"))
_COMPUTER = (N_("The computer"), N_("the computer"), N_("of the computer"), N_("to the computer"))
# The partner sits opposite with four players: «tu compañero o compañera» (the course's words, either one;
# «pareja» is the team of two).
_PARTNER = (N_("Your partner"), N_("your partner"), N_("of your partner"), N_("to your partner"))
# (no "of" form: «de ti», "of you" are never the Spanish or the English for the student's; see the module's notes)
_YOU = (N_("You"), N_("you"), None, N_("to you"))
_YOUR_TEAM = (N_("Your team"), N_("your team"), N_("of your team"), N_("to your team"))
# The other two are "the other team", not "the computer's": the computer may be playing your partner too.
_COMPUTER_TEAM = (N_("The other team"), N_("the other team"), N_("of the other team"), N_("to the other team"))
# A name the lesson gives ("Ana"): the name as written in every form, with the language's "of" and "to".
_NAMED_OF, _NAMED_TO = N_("of {name}"), N_("to {name}")


class Label(str):
    """One side, team or player in the learner's language: as text, its heading form (so a label still serves
    as a column header, an option or a caption); its other forms by format spec (see the module's notes)."""

    the: str
    of: str | None  # None for the student, who has no "of" form
    to: str
    is_you: bool

    def __new__(cls, heading: str, the: str, of: str | None, to: str, *, is_you: bool = False) -> Label:
        label = super().__new__(cls, heading)
        label.the, label.of, label.to, label.is_you = the, of, to, is_you
        return label

    def __repr__(self) -> str:
        return f"Label({str(self)!r}, {self.the!r}, {self.of!r}, {self.to!r})"

    def __getnewargs_ex__(self) -> tuple[tuple[str, str, str | None, str], dict[str, bool]]:
        # a copy (or a pickle) is made with every form, not from the heading alone
        return (str(self), self.the, self.of, self.to), {"is_you": self.is_you}

    def __format__(self, spec: str) -> str:
        if spec == "":
            return str(self)
        if spec == "the":
            return self.the
        if spec == "The":  # only the first letter: «El bando 2», not «El Bando 2» nor a lowered name
            return self.the[:1].upper() + self.the[1:]
        if spec == "of":
            if self.of is None:
                raise ValueError(f"{str(self)!r} (the student) has no 'of' form: a message that puts a side after "
                                 "'of' says its own form for the student («Tu montón», 'Your pile')")
            return self.of
        if spec == "to":
            return self.to
        raise ValueError(f"a label's form is one of {', '.join(repr(f) for f in FORMS)}, not {spec!r}")


def joined(_: Translator, labels: list[Label]) -> Label:
    """Several labels as one, each form a list in the language: «el bando 1 y el bando 3», «del bando 1 y del
    bando 3»."""
    ofs = [x.of for x in labels if x.of is not None]
    of = and_list(_, ofs) if len(ofs) == len(labels) else None  # (none with the student among them)
    return Label(and_list(_, labels), and_list(_, [x.the for x in labels]), of, and_list(_, [x.to for x in labels]),
                 is_you=any(x.is_you for x in labels))


def _label(_: Translator, forms: tuple[str, str, str | None, str], *, is_you: bool = False,
           **params: object) -> Label:
    heading, the, of, to = forms
    return Label(_(heading, **params), _(the, **params), None if of is None else _(of, **params), _(to, **params),
                 is_you=is_you)


def side(_: Translator, n: int) -> Label:
    """Side ``n`` (counted from 1): «Bando 2», «el bando 2», «del bando 2», «al bando 2»."""
    return _label(_, _SIDE, n=n)


def team(_: Translator, n: int) -> Label:
    """Team ``n`` of a game of four (counted from 1): «Pareja 1», «la pareja 1», «de la pareja 1»."""
    return _label(_, _TEAM, n=n)


def player(_: Translator, n: int) -> Label:
    """Player ``n`` (counted from 1): «Jugador 1», «el jugador 1», «del jugador 1», «al jugador 1»."""
    return _label(_, _PLAYER, n=n)


def computer(_: Translator, n: int | None = None) -> Label:
    """The computer, or computer ``n`` where there are two: «el ordenador», «el ordenador 2»."""
    return _label(_, _COMPUTER) if n is None else _label(_, _COMPUTER_N, n=n)


def partner(_: Translator) -> Label:
    return _label(_, _PARTNER)


def you(_: Translator) -> Label:
    return _label(_, _YOU, is_you=True)


def your_team(_: Translator) -> Label:
    return _label(_, _YOUR_TEAM)


def computer_team(_: Translator) -> Label:
    return _label(_, _COMPUTER_TEAM)


def named(_: Translator, name: str) -> Label:
    """A name a lesson gives a side ("Ana"): as written, with the language's "of" and "to"; inside a sentence,
    a name that starts with an article starts in lowercase («el ordenador»)."""
    return Label(name, _in_sentence(name), _(_NAMED_OF, name=name), _(_NAMED_TO, name=name))


_ARTICLES = {"el", "la", "los", "las", "tu", "the", "your"}


def _in_sentence(name: str) -> str:
    first = name.split(" ", 1)[0]
    return first.lower() + name[len(first):] if first.lower() in _ARTICLES else name

"""Small builders shared by the tests."""

from scoring.rules import Tally


def tally(
    cards: int,
    spades: int,
    big: bool = False,
    little: bool = False,
    aces: str = "",
    sweeps: int = 0,
) -> Tally:
    return Tally.make(
        cards=cards, spades=spades, big_casino=big, little_casino=little, aces=aces, sweeps=sweeps
    )


# First side takes 8 points (cards 3, spades 1, big casino 2, two aces), second side 3.
FIRST_8 = (tally(29, 8, big=True, aces="SH"), tally(23, 5, little=True, aces="CD"))
# The mirror image: first side 3, second side 8.
SECOND_8 = (tally(23, 5, little=True, aces="CD"), tally(29, 8, big=True, aces="SH"))
# First side takes all 11.
FIRST_11 = (tally(30, 9, big=True, little=True, aces="SCHD"), tally(22, 4))

"""Small English helpers for the texts the games show a player: the indefinite article of a
name and a count with its noun. Game-agnostic: the games' presentation modules use them so that
"an Alpha Fleet", "an Imperial Order" and "2 Star Fleets" read right everywhere.

>>> with_article("Alpha Fleet"), with_article("Star Fleet"), with_article("Trans-humans")
('an Alpha Fleet', 'a Star Fleet', 'Trans-humans')
>>> counted(1, "Star Fleet"), counted(2, "Control Group"), counted(0, "World Ship")
('1 Star Fleet', '2 Control Groups', 'no World Ship')
"""

from __future__ import annotations

VOWELS = "AEIOUaeiou"


def is_plural(name: str) -> bool:
    """Whether a unit's name is already a plural ("House Troops", "Trans-humans"): such a
    name takes no article and no further "s". A name ending in "ss" or "us" ("Nexus") is
    a singular.

    >>> is_plural("Kadesh Fanatics"), is_plural("Nexus"), is_plural("Fortress")
    (True, False, False)
    """
    return name.endswith("s") and not name.endswith(("ss", "us"))


def with_article(name: str) -> str:
    """``name`` with "a" or "an" in front (by its first letter), or as it is if it is a
    plural."""
    if not name or is_plural(name):
        return name
    return f"{'an' if name[0] in VOWELS else 'a'} {name}"


def counted(n: int, name: str) -> str:
    """``n`` and the noun, plural when ``n`` is not 1 ("no" for none)."""
    if n == 1:
        return f"1 {name}"
    noun = name if is_plural(name) else f"{name}s"
    return f"no {name}" if n == 0 else f"{n} {noun}"

"""What the importer shares among the readers of what a creature does to those who see, hear or stand near it (the
ability modules of frightful presence, the auras of presence, stench, smoke, entangle, roar and gazes, in
:mod:`arena.abilities`): the creature's own DC where a chapter gives each variant its own (:func:`own_dc`), a
paragraph's body without its name (:data:`ENTRY_HEAD`).
"""

from __future__ import annotations

import re

from arena.srd.context import Reading, bare_name
from arena.srd.prose import ability_head, heading_above, paragraph_heads
from arena.srd.text import Cell, clean, number

NAMED_DC = re.compile(
    r"save DC (?:against|for) (?:this |the )?([a-z' ]{1,80}?)'s\b([^.]{0,120}?)(?:\bis |\(DC )(\d+)", re.IGNORECASE
)
"""A variant's own DC, by its name: ``The save DC against this mummy lord's despair is 17``, ``The save DC for the
cauchemar's smoke attack (DC 24)``."""
ENTRY_HEAD = re.compile(r"^[^:]*:\s*")
"""A paragraph's name, left out of its body: ``Petrifying Gaze (Su):``."""


# --------------------------------------------------------------------------------------------- the creature's DC
def own_dc(ctx: Reading, item: dict, text: str, save: str = "Will") -> int | None:
    """The creature's own DC: a paragraph that gives it by name (``The save DC against this mummy lord's despair is
    17``), else the paragraph the ability's entry was read with (``Aura of Menace (Su): Will DC 16 negates`` of the
    hound archon, not the hero's ``(DC 18)`` below it), else ``text``'s."""
    words = set(re.findall(r"[a-z]+", ctx.block.title.lower()))
    ability = item["key"].split()[0]
    for c in ctx.block.description:
        named = NAMED_DC.search(c.text)
        if named and ability in named.group(2).lower() and set(named.group(1).lower().split()) <= words:
            return number(named.group(3))
    nearest = _nearest_paragraph(ctx, item)
    for own in (
        (nearest.text if nearest is not None else ""),
        (item["text"].split(" -- ", 1)[1] if " -- " in item["text"] else ""),
    ):
        dc = dc_of(clean(own), save) if own else None
        if dc is not None:
            return dc
    return dc_of(text, save)


def _nearest_paragraph(ctx: Reading, item: dict) -> Cell | None:
    """Of the paragraphs that describe the ability (``Captivating Song (Su): ...``), the one under the heading that
    names the creature, where a chapter gives a variant its own line (the harpy archer's ``Will DC 17 negates``
    under HARPY ARCHER, after the harpy's DC 16 under HARPY); None when no heading names it."""
    wanted = ability_head(bare_name(item["name"]))
    title = " ".join(re.findall(r"[a-z]+", ctx.block.title.split(",")[0].lower()))
    for c, head, _ in paragraph_heads(ctx.block.description).heads:
        if wanted and head == wanted and heading_above(ctx.block, c.line) == title:
            return c
    return None


_DC_PATTERNS: dict[str, re.Pattern[str]] = {}


def dc_of(text: str, save: str = "Will") -> int | None:
    """The one DC of ``save`` that ``text`` gives: ``DC 16 Will``, ``Will DC 16``, ``save DC against ... is 16``,
    ``(DC 16)``; None when it gives none, or several."""
    pattern = _DC_PATTERNS.get(save)
    if pattern is None:
        pattern = _DC_PATTERNS[save] = re.compile(
            rf"\bDC (\d+) {save}|\b{save} DC (\d+)|save DC against [\w' ]+? is "
            r"(\d+)|\(DC (\d+)\)"
        )
    values = {number(next(x for x in group if x)) for group in set(pattern.findall(text))}
    return values.pop() if len(values) == 1 else None

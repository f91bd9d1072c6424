"""The imported SRD bestiary's tables as text: the order in which to model its ignored abilities
(`arena bestiary coverage --markdown`) and the typical monster of each CR beside the SRD medians
(`arena bestiary typical-vs-srd`), in the Markdown of docs/bestiary.md or in plain columns."""

from __future__ import annotations


def coverage_markdown(report: dict, top: int | None) -> str:
    lines = [
        "| # | ability | decides | alone | have it (CR " + report["band"].replace("..", "-") + ") | "
        "have it (all CRs) | fully modelled then |",
        "|---|---|---|---|---|---|---|",
    ]
    for k, row in enumerate(report["order"][:top], 1):
        lines.append(
            f"| {k} | {row['ability']} | {row['decides']} | {row['alone']} | {row['creatures_in_band']} | "
            f"{row['creatures']} | {row['cumulative_full']:.0%} |"
        )
    return "\n".join(lines)


TYPICAL_HEAD = (
    "CR",
    "SRD creatures",
    "full",
    "hp typical",
    "hp SRD",
    "AC typical",
    "AC SRD",
    "attack typical",
    "attack SRD",
    "damage/round typical",
    "damage/round SRD",
    "DC typical",
    "DC SRD (with a DC)",
)


def typical_cells() -> list[tuple[str, ...]]:
    """The rows of `typical-vs-srd` as text cells, in the order of :data:`TYPICAL_HEAD`."""
    from arena.world.srd_bestiary import fmt, srd_rows, typical_against_srd
    from arena.world.typical import table_crs, typical_stats

    rows = typical_against_srd(srd_rows(), [typical_stats(c) for c in table_crs()])
    return [
        (
            r["cr"],
            str(r["srd_creatures"]),
            str(r["full"]),
            fmt(r["typical_hp"]),
            fmt(r["srd_hp"]),
            fmt(r["typical_ac"]),
            fmt(r["srd_ac"]),
            f"+{r['typical_attack']}",
            "-" if r["srd_attack"] is None else f"+{fmt(r['srd_attack'])}",
            fmt(r["typical_dpr"]),
            fmt(r["srd_dpr"]),
            fmt(r["typical_dc"]),
            f"{fmt(r['srd_dc'])} ({r['srd_with_dc']})",
        )
        for r in rows
    ]


def typical_table(markdown: bool) -> str:
    """The typical monster of each CR beside the medians of the SRD creatures of that CR (text: the Markdown of
    docs/bestiary.md, or plain aligned columns)."""
    head, lines = TYPICAL_HEAD, typical_cells()
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(cells) + " |" for cells in lines]
        return "\n".join(out)
    widths = [max(len(h), *(len(c[i]) for c in lines)) for i, h in enumerate(head)]
    out = ["  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    out += ["  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)) for cells in lines]
    return "\n".join(out)

"""A stat block as readable text (`arena bestiary show`): the SRD layout of its numbers and attack routines, and
its special abilities with what the engine does with each."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from arena.abilities.breath import breath_weapon_of
from arena.abilities.rend import rend_of
from arena.world.attacks import Attack
from arena.world.creatures import Creature, cr_text


def _attack_text(a: Attack) -> str:
    bonus = "/".join(f"{b:+d}" for b in a.bonuses)
    crit = "" if a.threat == 20 else f"/{a.threat_range}"
    crit += "" if a.multiplier == 2 else f"/x{a.multiplier}"
    extra = f" plus {a.extra_damage} {a.extra_damage_type}" if a.extra_damage else ""
    extra += f" plus sneak attack {a.sneak_attack}" if a.sneak_attack else ""
    extra += " plus trip" if a.trip else ""
    name = f"{a.count} {a.name}s" if a.count > 1 else a.name
    touch = " touch" if a.touch else ""
    return f"{name} {bonus} {a.kind}{touch} ({a.damage}{crit}{extra}) [{', '.join(a.damage_types)}]"


def _routines(routines: tuple[tuple[Attack, ...], ...]) -> str:
    return " or ".join(" and ".join(_attack_text(a) for a in r) for r in routines) or "-"


CORE_TRAITS = (
    "ferocity",
    "incorporeal",
    "invisible",
    "evasion",
    "improved_evasion",
    "uncanny_dodge",
    "improved_uncanny_dodge",
    "defensive_roll",
)
"""The traits the fight's core reads (fields of ``Creature``, not ability modules), each shown by its name when on."""
SAID_OWN_WAY = ("rend", "breath_weapon")
"""Ability fields :func:`stat_block` says in the SRD's words (the rest by :func:`value_text`)."""


def value_text(value: Any) -> str:
    """A field's value in a few words: a model or mapping as ``key value`` pairs, a list joined with ``/``."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, dict) and {"dice", "ability"} <= set(value) <= {"dice", "ability", "drain"}:
        return f"{value['dice']} {str(value['ability']).capitalize()}" + (" drain" if value.get("drain") else "")
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {value_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "/".join(value_text(v) for v in value)
    return str(value)


def _core_trait(name: str, value: Any) -> str:
    """A core trait by its name; one that carries a number (improved uncanny dodge: the rogue level that a flanking
    rogue must beat by four) with it."""
    words = name.replace("_", " ")
    if name == "improved_uncanny_dodge" and not isinstance(value, bool):
        return f"{words} (rogue level {value})"
    return words


def _ability_fields(c: Creature) -> list[str]:
    """Every special ability's field the block sets (the engine fights with each), in the registry's order: its
    name, and its numbers in a few words."""
    from arena.world.ability_fields import registered

    out = []
    for f in registered():
        value = getattr(c, f.name, None)
        if f.name in SAID_OWN_WAY or value is None or value is False or value == () or value == f.default:
            continue
        name = f.name.replace("_", " ")
        out.append(name if value is True else f"{name} ({value_text(value)})")
    return out


def stat_block(c: Creature) -> str:
    """A readable SRD-style stat block."""
    ab = c.abilities
    abil = ", ".join(f"{k.capitalize()} {'-' if v is None else v}" for k, v in ab.model_dump().items())
    sub = f" ({', '.join(c.subtypes)})" if c.subtypes else ""
    lines = [
        f"{c.display_name} [{c.name}]",
        f"  {c.size.capitalize()} {c.type}{sub}; {c.side}; CR {cr_text(c.cr) if c.cr is not None else '-'}"
        + (f"; levels {', '.join(f'{k} {v}' for k, v in c.class_levels.items())}" if c.class_levels else ""),
        f"  Hit Dice: {c.hit_dice} ({c.hp} hp); first hit die d{c.first_hit_die}",
        f"  Initiative: {c.initiative:+d}; Speed: {c.speed} ft.; Space/Reach: {c.space_ft} ft./{c.reach_ft} ft.",
        f"  AC {c.ac}, touch {c.touch_ac}, flat-footed {c.flat_footed_ac}",
        f"  Base Attack/Grapple: {c.bab:+d}/{c.grapple:+d}",
        f"  Attack: {_routines(c.attack)}",
        f"  Full Attack: {_routines(c.full_attack)}",
        f"  Saves: Fort {c.saves.fort:+d}, Ref {c.saves.ref:+d}, Will {c.saves.will:+d}",
        f"  Abilities: {abil}",
    ]
    special = []
    rend = rend_of(c)
    if rend:
        special.append(f"rend {rend.damage} (both {rend.attack}s hit)")
    bw = breath_weapon_of(c)
    if bw:
        special.append(
            f"breath weapon {bw.length_ft}-ft. {bw.shape} {bw.damage} {bw.damage_type} "
            f"({bw.save} DC {bw.dc} {'half' if bw.half_on_save else 'negates'}, every {bw.recharge} rounds)"
        )
    special.extend(_ability_fields(c))
    special.extend(_core_trait(name, getattr(c, name)) for name in CORE_TRAITS if getattr(c, name))
    if c.class_features:
        special.append("class features: " + ", ".join(c.class_features))
    if c.damage_reduction:
        special.append(f"DR {c.damage_reduction}")
    if c.regeneration:
        special.append(
            f"regeneration {c.regeneration.amount} ({' and '.join(c.regeneration.overcome_by)} deal normal damage)"
        )
    if c.fast_healing:
        special.append(f"fast healing {c.fast_healing}")
    if c.spell_resistance:
        special.append(f"SR {c.spell_resistance}")
    if c.energy_resistance:
        special.append("resist " + ", ".join(f"{k} {v}" for k, v in c.energy_resistance.items()))
    if c.all_immunities:
        special.append("immune to " + ", ".join(sorted(c.all_immunities)))
    if c.all_vulnerabilities:
        special.append("vulnerable to " + ", ".join(sorted(c.all_vulnerabilities)))
    lines.append(f"  Special: {'; '.join(special) or '-'}")
    if c.spellcasting:
        sc = c.spellcasting
        spells = "; ".join(f"{lvl}: {', '.join(names)}" for lvl, names in sorted(sc.prepared.items()))
        domains = f"; domains {', '.join(sc.domains)}" if sc.domains else ""
        lines.append(f"  Spells: caster level {sc.caster_level} ({sc.ability}){domains}; {spells or '-'}")
    parts = ", ".join(
        f"{p.part}{' x' + str(p.count) if p.count > 1 else ''} +{p.ac_bonus}" for p in c.called_shot_parts
    )
    lines.append(f"  Called-shot parts (improved AC): {parts or '-'}")
    if c.feats:
        lines.append(f"  Feats: {', '.join(c.feats)}")
    lines.append(f"  Tactics: {c.tactics}")
    if c.notes:
        lines.append(f"  Notes: {c.notes}")
    if c.source:
        lines.append(f"  Source: {c.source}")
    return "\n".join(lines)


def abilities_text(c: Creature, twin: Creature | None = None) -> str:
    """The special abilities and what the engine does with each; a hand-written block shows its SRD twin's."""
    shown = c if c.special_abilities or twin is None else twin
    if not shown.special_abilities:
        return ""
    head = (
        "  Special abilities (fully modelled)"
        if shown.modelled == "full"
        else f"  Special abilities (partly modelled: the engine ignores {', '.join(shown.ignored_abilities)})"
    )
    if shown is not c:
        head += f" -- of the imported SRD block srd/{twin.name}"
    lines = [head + ":"]
    for a in shown.special_abilities:
        numbers = ", ".join(
            x
            for x in (
                f"{a.save.capitalize()} DC {a.dc}" if a.save and a.dc else f"DC {a.dc}" if a.dc else "",
                a.damage or "",
                str(a.amount) if a.amount is not None else "",
            )
            if x
        )
        extra = f" [{numbers}]" if numbers else ""
        note = f" ({a.notes})" if a.notes else ""
        lines.append(f"    {a.engine:<9} {a.kind:<7} {a.name}{extra}{note}")
    if c.import_status is not None:
        lines.append(f"  Import: {c.import_status}" + (f"; {len(c.import_notes)} note(s):" if c.import_notes else ""))
        for n in c.import_notes:
            where = f"line {n.line}: " if n.line else ""
            lines.append(f"    {n.kind}: {where}{n.field}: {n.message}" + (f" -- {n.text[:80]!r}" if n.text else ""))
    return "\n".join(lines)

"""Special abilities that become stat-block fields once a block's attacks are known, third part: summoning,
whirlwinds, crush (and the mimic's adhesive), the auras of presence (despair, aura of menace, captivating song), the
dragonne's roar, the nightmare's smoke, the assassin vine's entangle, eye rays, smite, and the abilities that do
nothing against the arena's party (magic circle against evil) or stand for one the model has (immunity to
compulsion).

As :mod:`arena.srd.effects` does for poison, :func:`special_fields` reads each ability's numbers from its
description in the block's text (``Summon Demon (Sp): Once per day a dretch can attempt to summon another dretch
with a 35% chance of success``), or from the family's table by size (the air elementals' whirlwind), fills the
:class:`~arena.world.creatures.Creature` field and marks the ability ``modelled``; an ability whose numbers cannot
be read, or whose effect the engine's field cannot carry, stays ``ignored`` and its ``notes`` say why.
"""

from __future__ import annotations

import re

from arena.dice import parse as parse_dice
from arena.srd.effects import (
    _DICE,
    NUMBER_WORDS,
    SAVES,
    SIZE_WORDS,
    _dice,
    _following,
    _numbers,
    _text_of,
    size_row,
)
from arena.srd.fields import AttackRead, Notes, _clean, number
from arena.srd.holds import _field_name, _first, _ignored, _named, _set, _unread
from arena.srd.text import (
    RawBlock,
    _ability_head,
    drop_parens,
    lines_where,
    nearest_before,
    paragraph_heads,
    rule_above,
    search_chain,
)

_SAVE = r"(Fortitude|Reflex|Will)"
PER_DAY = {"once": 1, "twice": 2, "three times": 3}
IRREGULAR = {"dretches": "dretch", "hezrous": "hezrou", "lemures": "lemure", "babau": "babau", "hezrou": "hezrou"}
"""Plural creature names of the summon texts that a plain -s does not make."""


def _aura(abilities: list[dict], key: str, field: dict, described: str) -> dict:
    """An aura read whole: its save numbers, marked modelled with what the engine does, and its ``aura`` field."""
    _numbers(abilities, key, field["dc"], field["save"])
    _set(abilities, key, "modelled", described)
    return {"aura": field}


def special_fields(block: RawBlock, abilities: list[dict], data: dict, reads: list[list[AttackRead]],
                   notes: Notes) -> dict:
    """The summon, whirlwind, crush, aura, roar, smoke, entangle, eye rays and smite fields of the block (``data``
    is the block as read so far); sets the ``engine`` and ``notes`` of the abilities."""
    out: dict = {}
    for key, reader in (("summon", _summon), ("whirlwind", _whirlwind), ("crush", _crush), ("despair", _despair),
                        ("smite", _nimbus),
                        ("aura of menace", _menace), ("captivating song", _song), ("roar", _roar),
                        ("smoke", _smoke), ("entangle", _entangle)):
        item = _first(abilities, key)
        if item is not None and item["engine"] == "ignored":
            out.update(reader(block, item, abilities, data, notes))
    for key, reader in (("split", _split), ("acid", _acid),
                        ("earth mastery", _earth_mastery), ("bay", _bay), ("attach", _attach),
                        ("fear aura", _fear_aura), ("blood drain", _blood_drain), ("slow", _slow),
                        ("quickness", _quickness), ("engulf", _engulf), ("acid sting", _acid_sting),
                        ("lay on hands", _lay_on_hands), ("freedom of movement", _freedom),
                        ("natural invisibility", _always_invisible), ("greater invisibility", _always_invisible),
                        ("corporeal instability", _instability), ("pipes", _pipes),
                        ("invisible in light", _always_invisible),
                        ("petrification", _petrification), ("evasion", _evasion), ("spit acid", _spit_acid),
                        ("spikes", _spikes), ("horrific appearance", _horrific)):
        item = _first(abilities, key)
        if item is not None and item["engine"] == "ignored":
            out.update(reader(block, item, abilities, {**data, **out}, notes))
    for key, why in NO_EFFECT_HERE.items():
        item = _first(abilities, key)
        if item is not None and item["engine"] == "ignored" and re.search(why[0], _clean(item["text"]),
                                                                          re.IGNORECASE):
            _set(abilities, key, "no effect", why[1])
    item = _first(abilities, "ray")
    if item is not None and item["engine"] == "ignored" and "eye ray" in item["name"].lower():
        out.update(_eye_rays(block, item, abilities, reads, notes))
    if _first(abilities, "magic circle against evil") is not None:
        _set(abilities, "magic circle against evil", "no effect",
             "the party is not evil: the circle's +2 on AC and saves against evil creatures and its barrier against "
             "evil summoned creatures never apply, and the party casts no spell of ongoing mental control it blocks")
    item = _first(abilities, "immunity to compulsion")
    if item is not None:
        if data.get("type") != "humanoid":
            out["immunities"] = list(dict.fromkeys([*data.get("immunities", []), "sleep"]))
            _set(abilities, "immunity to compulsion", "modelled",
                 "immunities: sleep; the party's compulsions are sleep and hold person, and hold person affects "
                 "only humanoids")
        else:
            _set(abilities, "immunity to compulsion", "ignored", "a humanoid's immunity to hold person is not one "
                                                                 "the model has")
    return out


NO_EFFECT_HERE: dict[str, tuple[str, str]] = {
    "push": (r"bull rush", "a bull rush pushes the foe back, and the arena has no squares to push it into"),
    "drench": (r"puts out torches", "it puts out flames and dispels magical fire it touches: the party's fire spells "
                                    "are instantaneous, and it carries no lasting fire"),
    "vortex": (r"provided it is underwater", "only underwater, and the arena has no water"),
    "madness": (r"thought detection, mind control, or telepathic",
                "it harms those who read or control its mind, which the party never tries"),
    "freeze": (r"appears to be a statue", "an ambush (a Spot check to see it); arena fights begin face to face"),
    "shriek": (r"attracts nearby creatures", "it calls other monsters to the noise; an arena fight has no others"),
    "howl": (r"for an hour or longer", "it takes an hour of listening, and a fight is over long before"),
    "resilient": (r"included in the statistics block", "its save bonus is already in the stat block's saves"),
    "spell storing": (r"cast into it by another creature", "it casts only a spell cast into it beforehand, and an "
                                                          "arena fight begins with none stored"),
}
"""Abilities that do nothing in an arena fight, for the reason given (checked against the SRD's words, the
pattern, so that an ability of the same name that does something stays ignored)."""


def _hit_dice(data: dict) -> int:
    return sum(count for sign, count, _, _ in parse_dice(data["hit_dice"]).dice if sign > 0) or 1


# --------------------------------------------------------------------------------------------- summon
_SUMMON = re.compile(r"\b(Once|Twice|Three times) per day,? an? [\w' -]+? can (?:attempt to )?summon (.+?) with "
                     r"(?:only )?an? (\d+)% chance of success(.*)", re.IGNORECASE)


def _creature_name(words: str, own: str) -> tuple[str, str] | None:
    """(count, bestiary name) of ``2d10 dretches``, ``another vrock``, ``one glabrezu``, ``1 babau``."""
    words = words.strip().lower()
    if re.match(r"another\b", words):
        return "1", own
    m = re.match(rf"({_DICE}|one|a|an)\s+(.+)$", words)
    if m is None:
        return None
    count = "1" if m.group(1) in ("one", "a", "an") else m.group(1).replace(" ", "")
    name = m.group(2).strip()
    if name in IRREGULAR:
        name = IRREGULAR[name]
    elif name.endswith("s"):
        name = name[:-1]
    return count, re.sub(r"\s+", "-", name)


def _summon(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``Once per day a vrock can attempt to summon 2d10 dretches or another vrock with a 35% chance of success``:
    the first of the options listed with the highest chance (the summoner's choice, which the SRD leaves to it)."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, item["name"], "summon demon", "summon devil", "summon mephit")
    if not text:            # "Summon Demon (Sp):Once per day" (no space), or the family's rule (the mephits')
        text = next((_clean(c.text) for c in block.description if re.match(r"\s*Summon \w+ \(Sp\):", c.text)),
                    None) or _clean(rule_above(block, r"^Summon \w+ \(Sp\):") or "")
    m = _SUMMON.search(text)
    if m is None:
        why = "it summons automatically (no chance)" if re.search(r"automatically summon", text) else \
            "its uses and chance not read"
        return _ignored(abilities, "summon", why)
    uses = PER_DAY[m.group(1).lower()]
    groups = [(m.group(2), number(m.group(3)))]
    for more in re.finditer(r"or (.+?) with an? (\d+)% chance", m.group(4)):
        groups.append((more.group(1), number(more.group(2))))
    chance = max(c for _, c in groups)
    words, _ = next(g for g in groups if g[1] == chance)
    options = [o for o in re.split(r",\s*(?:or\s+)?|\s+or\s+", words) if o.strip()]
    own = data["name"]
    same = re.search(r"another mephit of the same variety", text)
    first = ("1", own) if same else _creature_name(options[0], own)
    if first is None:
        notes.add("unread", _field_name(item), cell, f"summon: the creature of {options[0]!r} not read: not "
                                                      "modelled", text[:200])
        return _ignored(abilities, "summon", "the creature it summons not read")
    count, creature = first
    how = "" if len(options) == 1 and len(groups) == 1 else \
        f"; of the options ({'; '.join(w for w, _ in groups)}) the first of the highest chance"
    _set(abilities, "summon", "modelled", f"summon: {count} {creature}, {chance}% chance, {uses} a fight, a "
                                          f"standard action; joins at the next round{how}")
    return {"summon": {"creature": creature, "count": count, "chance": chance / 100, "uses": uses}}


# --------------------------------------------------------------------------------------------- whirlwind
def _whirlwind(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The air elemental's (``remain in that form for up to 1 round for every 2 HD``; save DC and damage from the
    table by size) and the djinni's (``up to 7 rounds ... DC 20 Reflex save ... or take 3d6 points of damage ...
    automatically taking 1d8 points of damage each round``)."""
    cell = block.get(_field_name(item))
    desc, _ = _text_of(block, item, "whirlwind")
    text = _following(block, desc, 4)
    if re.search(r"whirlwind blast", item["name"], re.IGNORECASE) or desc is None:
        return _ignored(abilities, "whirlwind", "a blast from its whirlwind form, which it takes by alternate form "
                                                "(not modelled)" if desc is not None else "no description read")
    per_hd = re.search(r"1 round for every 2 HD", text)
    fixed = re.search(r"for up to (\d+) rounds", text)
    rounds = str(max(1, _hit_dice(data) // 2)) if per_hd else fixed.group(1) if fixed else None
    dc = re.search(r"\bDC (\d+) Reflex save when it comes into contact", text)
    hit = re.search(rf"or take ({_DICE}) points of damage", text)
    held = re.search(rf"automatically taking ({_DICE}) points of damage each round", text)
    how = ""
    if dc and hit and held:
        field = {"dc": number(dc.group(1)), "damage": _dice(hit.group(1)), "held_damage": _dice(held.group(1))}
    else:
        found = size_row(block, data["size"], desc.line, "Save DC")
        row = found[1] if found else {}
        save = next((v for k, v in row.items() if "save dc" in k.lower()), "")
        damage = next((v for k, v in row.items() if k.lower() == "damage"), "")
        if not save.isdigit() or not re.fullmatch(_DICE, damage or "-"):
            return _unread(notes, abilities, item, cell, "whirlwind", "its save DC and damage not read", text)
        field = {"dc": number(save), "damage": _dice(damage), "held_damage": _dice(damage)}
        how = f"; its DC and damage from the {found[0]} row of its table by size"
    if rounds is None:
        return _unread(notes, abilities, item, cell, "whirlwind", "how long it lasts not read", text)
    field["rounds"] = rounds
    _set(abilities, "whirlwind", "modelled", f"whirlwind: {rounds} rounds once a fight instead of its slams; smaller "
                                             f"foes Reflex DC {field['dc']} or {field['damage']}, and again or "
                                             f"carried ({field['held_damage']} a round, -2 attacks and AC){how}")
    return {"whirlwind": field}


# --------------------------------------------------------------------------------------------- crush
def _crush(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """A dragon's (``Crush 2d8+16``: against foes three or more size categories smaller, Reflex at the breath
    weapon's DC) or the mimic's ("deals 1d8+4 points of damage with a successful grapple check", with its adhesive:
    "automatically grapples any creature it hits with its slam attack")."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "crush")
    entry = re.search(rf"({_DICE})", re.sub(r"^\s*crush\s*", "", _clean(item["name"]), flags=re.IGNORECASE))
    if re.search(r"with a successful grapple check", text):
        return _adhesive(block, item, abilities, data, notes, text)
    breath = data.get("breath_weapon")
    if entry is None or "d" not in entry.group(1) or breath is None:
        what = "no damage" if entry is None else "no breath weapon to take the DC from"
        return _unread(notes, abilities, item, cell, "crush", f"{what} read", text)
    damage = _dice(entry.group(1))
    smaller = 3 if re.search(r"three or more size categories smaller", text) else 3
    for a in abilities:
        if a["key"] == "crush":
            a["damage"], a["dc"], a["save"] = damage, breath["dc"], "ref"
    _set(abilities, "crush", "modelled", f"crush: {damage} on foes {smaller} or more sizes smaller, Reflex DC "
                                         f"{breath['dc']} (its breath weapon's) negates, as its standard action "
                                         "(the pin's damage at once, the pin not kept)")
    return {"crush": {"damage": damage, "dc": breath["dc"], "smaller_by": smaller}}


def _adhesive(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes, text: str) -> dict:
    glue = _first(abilities, "adhesive")
    desc, glue_text = _text_of(block, glue, "adhesive") if glue is not None else (None, "")
    m = re.search(r"automatically grapples any creature it hits with its (\w+) attack", glue_text)
    names = [a["name"] for r in (data.get("full_attack") or []) + (data.get("attack") or []) for a in r]
    attack = _named(m.group(1), names) if m else None
    dmg = re.search(rf"deals ({_DICE}) points of damage with a successful grapple check", text)
    if attack is None or dmg is None or data.get("improved_grab") is not None:
        return _ignored(abilities, "crush", "the damage of a grapple, and no adhesive or grab that starts it read")
    slam = next(a for r in (data.get("full_attack") or []) + (data.get("attack") or []) for a in r
                if a["name"] == attack)
    how = ""
    if _dice(dmg.group(1)) != slam["damage"]:
        how = f"; its crush {_dice(dmg.group(1))} differs from the {attack}'s {slam['damage']}: the {attack}'s"
        notes.add("guess", _field_name(item), block.get(_field_name(item)), f"crush: the hold deals the {attack}'s "
                                                                            "damage", text[:200])
    _set(abilities, "crush", "modelled", f"crush: its hold deals {slam['damage']} on each won grapple check "
                                         f"(improved_grab on the {attack}){how}")
    _set(abilities, "adhesive", "modelled", f"adhesive: a hit with its {attack} holds the foe, of any size, with no "
                                            "grapple check, and the foe cannot escape while it lives")
    return {"improved_grab": {"attack": attack, "constrict": None, "any_size": True, "automatic": True}}


# --------------------------------------------------------------------------------------------- auras
def _own_dc(block: RawBlock, item: dict, text: str, save: str = "Will") -> int | None:
    """The creature's own DC: a paragraph that gives it by name (``The save DC against this mummy lord's despair is
    17``), else the paragraph the ability's entry was read with (``Aura of Menace (Su): Will DC 16 negates`` of the
    hound archon, not the hero's ``(DC 18)`` below it), else ``text``'s."""
    words = set(re.findall(r"[a-z]+", block.title.lower()))
    ability = item["key"].split()[0]
    for c in block.description:
        named = re.search(r"save DC (?:against|for) (?:this |the )?([a-z' ]{1,80}?)'s\b([^.]{0,120}?)"
                          r"(?:\bis |\(DC )(\d+)", c.text, re.IGNORECASE)
        if named and ability in named.group(2).lower() and set(named.group(1).lower().split()) <= words:
            return number(named.group(3))          # "The save DC for the cauchemar's smoke attack (DC 24)"
    nearest = _nearest_paragraph(block, item)
    for own in ((nearest.text if nearest is not None else ""),
                (item["text"].split(" -- ", 1)[1] if " -- " in item["text"] else "")):
        dc = _dc_of(_clean(own), save) if own else None
        if dc is not None:
            return dc
    return _dc_of(text, save)


def _nearest_paragraph(block: RawBlock, item: dict):
    """Of the paragraphs that describe the ability (``Captivating Song (Su): ...``), the one under the heading that
    names the creature, where a chapter gives a variant its own line (the harpy archer's ``Will DC 17 negates``
    under HARPY ARCHER, after the harpy's DC 16 under HARPY); None when no heading names it."""
    bare = re.sub(r"\d+d\d+|[+-]?\d+", " ", drop_parens(item["name"].lower()))
    wanted = _ability_head(re.split(r"\s+(?:plus|or)\s+", bare)[0].strip(" .,"))
    title = " ".join(re.findall(r"[a-z]+", block.title.split(",")[0].lower()))
    for c, head, _ in paragraph_heads(block.description).heads:
        if wanted and head == wanted and _heading_above(block, c.line) == title:
            return c
    return None


def _heading_above(block: RawBlock, line: int) -> str:
    """The chapter's heading (a line in capitals: ``HARPY ARCHER``) nearest above ``line``, in lowercase."""
    headings = lines_where(block.context, "capitals heading", _is_capitals_heading)
    found = nearest_before(headings, min(line, len(block.context)) - 1)
    return "" if found is None else " ".join(re.findall(r"[a-z]+", block.context[found].strip().lower()))


def _is_capitals_heading(line: str) -> bool:
    text = line.strip()
    return len(text) > 2 and re.fullmatch(r"[A-Z][A-Z ,'-]+", text) is not None and text not in ("COMBAT", "TACTICS")


def _dc_of(text: str, save: str = "Will") -> int | None:
    dcs = set(re.findall(rf"\bDC (\d+) {save}|\b{save} DC (\d+)|save DC against [\w' ]+? is (\d+)|\(DC (\d+)\)",
                         text))
    values = {number(next(x for x in group if x)) for group in dcs}
    return values.pop() if len(values) == 1 else None


def _despair(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``At the mere sight of a mummy, the viewer must succeed on a DC 16 Will save or be paralyzed with fear for
    1d4 rounds`` (a mummy lord's paragraph gives only its DC: the rest is the mummy's, the rule above it)."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "despair")
    dc = _own_dc(block, item, text)
    rounds = re.search(rf"paralyzed with fear for ({_DICE}) rounds", text)
    if rounds is None and dc is not None and re.search(r"mummy", block.title, re.IGNORECASE):
        rounds = re.search(r"(1d4)", "1d4")
        notes.add("guess", _field_name(item), cell, "despair: only the DC given: paralyzed for 1d4 rounds, the "
                                                     "mummy's", text[:200])
    if dc is None or rounds is None:
        return _unread(notes, abilities, item, cell, "despair", "its DC and duration not read", text)
    return _aura(abilities, "despair",
                 {"effect": "paralysis", "dc": dc, "save": "will", "rounds": _dice(rounds.group(1))},
                 f"aura: Will DC {dc} or paralyzed with fear for {rounds.group(1)} rounds, "
                 "once for each foe, on its first action")


def _menace(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``Aura of Menace (Su): Will DC 12 negates`` (each archon's paragraph; the rule is the archons': "-2 penalty on
    attacks, AC, and saves for 24 hours or until they successfully hit the archon")."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "aura of menace")
    dc = _own_dc(block, item, text)
    if dc is None:
        return _unread(notes, abilities, item, cell, "aura of menace", "no Will DC read", text)
    return _aura(abilities, "aura of menace", {"effect": "menace", "dc": dc, "save": "will"},
                 f"aura: Will DC {dc} or -2 on attack rolls, AC and saves for the "
                 "fight (hitting the archon, which ends it in the SRD, is not "
                 "modelled), on its first action")


def _song(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``all creatures (other than harpies) within a 300-foot spread must succeed on a DC 16 Will save or become
    captivated ... Captivated creatures can take no actions other than to defend themselves ... A victim within 5
    feet of the harpy stands there and offers no resistance ... The effect continues for as long as the harpy
    sings and for 1 round thereafter``."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "captivating song")
    dc = _own_dc(block, item, text)
    if dc is None:
        return _unread(notes, abilities, item, cell, "captivating song", "no Will DC read", text)
    return _aura(abilities, "captivating song", {"effect": "captivate", "dc": dc, "save": "will", "rounds": "1"},
                 f"aura: Will DC {dc} once for each foe or captivated (it walks to the harpy and offers no "
                 "resistance: helpless) while the harpy sings and 1 round after; the harpy sings from its first action "
                 "on, as a free action each turn (the SRD names no action)")


# --------------------------------------------------------------------------------------------- roar, smoke, entangle
def _roar(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The dragonne's: ``loose a devastating roar every 1d4 rounds ... DC 15 Will save or become fatigued. Those
    within 30 feet who fail their saves become exhausted``. A roar of other effects (the androsphinx's fear, the
    leonal's holy word) is not this one."""
    desc, text = _text_of(block, item, "roar")
    every = re.search(r"roar every (\d+d\d+) rounds", text)
    dc = _dc_of(text)
    if every is None or dc is None or "fatigued" not in text:
        return _ignored(abilities, "roar", "not the dragonne's roar of fatigue (a fear or holy word effect, or "
                                           "numbers not read)")
    _numbers(abilities, "roar", dc, "will")
    _set(abilities, "roar", "modelled", f"roar: every {every.group(1)} rounds as its standard action, Will DC {dc} or "
                                        "fatigued (exhausted for the foes in melee with it, within 30 feet)")
    return {"roar": {"dc": dc, "save": "will", "recharge": every.group(1)}}


def _smoke(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``fills a 15-foot cone with a hot, sulfurous smoke ... DC 16 Fortitude save or take a -2 penalty on all
    attack and damage rolls until 1d6 minutes after leaving the cone ... once as a free action during its turn each
    round``."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "smoke")
    cone = re.search(r"(?<!\d)(\d+)-foot cone", text)
    dc = _own_dc(block, item, text, "Fortitude")
    if cone is None or dc is None or not re.search(r"-2 penalty on all attack and damage rolls", text):
        return _unread(notes, abilities, item, cell, "smoke", "its cone, DC and penalty not read", text)
    how = ""
    if re.search(r"concealment", _following(block, desc, 1)):
        how = "; the concealment its smoke gives it is left out"
    _numbers(abilities, "smoke", dc, "fort")
    _set(abilities, "smoke", "modelled", f"smoke: a {cone.group(1)}-ft. cone at the start of each of its turns (a "
                                         f"free action), Fort DC {dc} or -2 on attack and damage rolls for the fight"
                                         f"{how}")
    return {"smoke": {"length_ft": number(cone.group(1)), "dc": dc, "save": "fort"}}


def _entangle(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The assassin vine's: ``can animate plants within 30 feet of itself as a free action (Ref DC 13 partial)``,
    as the entangle spell (entangled; a DC 20 Strength check to break free). An entangling weapon (the erinyes'
    rope, the balor's whip) is not this one."""
    desc, text = _text_of(block, item, "entangle")
    dc = re.search(r"\(Ref(?:lex)? DC (\d+) partial\)", text)
    if dc is None or not re.search(r"animate plants", text):
        return _ignored(abilities, "entangle", "an entangling weapon or rope (not the assassin vine's plants)")
    _numbers(abilities, "entangle", number(dc.group(1)), "ref")
    _set(abilities, "entangle", "modelled", f"entangle: at the start of each of its turns (a free action) every foe "
                                            f"not entangled, Reflex DC {dc.group(1)} or entangled (a DC 20 Strength "
                                            "check to burst free, the entangle spell's)")
    return {"entangle": {"dc": number(dc.group(1)), "burst_dc": 20}}


# --------------------------------------------------------------------------------------------- eye rays
_RAY_LINE = re.compile(rf"^(Fire|Cold|Electricity|Acid|Sonic|Petrification): (?:Deals ({_DICE}) points of \w+ "
                       rf"damage to the target \((Reflex|Fortitude) half ?\)|The target must succeed on a "
                       rf"(Fortitude|Reflex|Will) save or turn to stone)", re.IGNORECASE)


def _eye_rays(block: RawBlock, item: dict, abilities: list[dict], reads: list[list[AttackRead]],
              notes: Notes) -> dict:
    """The retriever's: ``Each round, it can fire one ray as a free action. A particular ray is usable only once
    every 4 rounds ... The save DC for all rays is 18``, then a paragraph per ray (``Fire: Deals 12d6 points of fire
    damage to the target (Reflex half)``, ``Petrification: The target must succeed on a Fortitude save or turn to
    stone permanently``); its bonus is the ``eye ray +8 ranged touch`` of its attack line."""
    cell = block.get(_field_name(item))
    desc, _ = _text_of(block, item, "eye rays")
    text = _following(block, desc, 1)
    dc = re.search(r"save DC for all rays is (\d+)", text)
    every = re.search(r"usable only once every (\d+) rounds", text)
    bonus = next((a.bonuses[0] for r in reads for a in r if re.search(r"eye ray", a.name, re.IGNORECASE)), None)
    rays = []
    cells = block.description
    start = cells.index(desc) if desc in cells else len(cells)
    for c in cells[start + 1:start + 16]:
        m = _RAY_LINE.match(_clean(c.text))
        if m is None:
            if re.match(r"\s*[A-Z][\w ]+ \((?:Ex|Su|Sp)\):", c.text):
                break                   # the next ability
            continue
        if m.group(2):
            rays.append({"name": m.group(1).lower(), "damage": _dice(m.group(2)),
                         "damage_type": m.group(1).lower(), "save": SAVES[m.group(3).lower()]})
        else:
            rays.append({"name": m.group(1).lower(), "effect": "petrify", "save": SAVES[m.group(4).lower()]})
    if dc is None or bonus is None or not rays:
        what = "no save DC" if dc is None else "no attack bonus" if bonus is None else "no rays"
        return _unread(notes, abilities, item, cell, "ray", f"{what} read", text, label="eye rays")
    field = {"bonus": bonus, "dc": number(dc.group(1)), "rays": rays, "every": number(every.group(1)) if every else 1}
    _set(abilities, "ray", "modelled", f"eye_rays: one a round as a free action at the start of its turn, each once "
                                       f"every {field['every']} rounds ({', '.join(r['name'] for r in rays)}), "
                                       f"ranged touch {bonus:+d}, DC {field['dc']}")
    return {"eye_rays": field}


# --------------------------------------------------------------------------------------------- second batch
def _plus(damage: str, more: int) -> str:
    """``2d8+7`` plus 1 is ``2d8+8``."""
    m = re.fullmatch(r"(.*?)([+-]\d+)?", damage)
    total = number(m.group(2) or 0) + more
    return f"{m.group(1)}{total:+d}" if total else m.group(1)


def _earth_mastery(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """SRD 3.5 Earth elemental: "gains a +1 bonus on attack and damage rolls if both it and its foe are touching the
    ground ... (These modifiers are not included in the statistics block.)": every arena fight is on the ground, so
    its attacks gain +1 and +1."""
    desc, text = _text_of(block, item, "earth mastery")
    if not re.search(r"\+1 bonus on attack and damage rolls if both it and its foe are touching the ground", text):
        return _ignored(abilities, "earth mastery", "its numbers not read")
    out = {}
    for key in ("attack", "full_attack"):
        out[key] = [[{**a, "bonuses": [b + 1 for b in a["bonuses"]], "damage": _plus(a["damage"], 1)}
                     for a in routine] for routine in data.get(key) or []]
    notes.add("changed", _field_name(item), block.get(_field_name(item)), "earth mastery: +1 on its attack and "
                                                                          "damage rolls (the fight is on the "
                                                                          "ground), added to its attacks",
              text[:200])
    _set(abilities, "earth mastery", "modelled", "+1 on attack and damage rolls, added to its attacks: an arena "
                                                 "fight is on the ground (no foe of the party flies)")
    return out


def _bay(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``all creatures except other evil outsiders within a 300-foot spread must succeed on a DC 11 Will save or
    become panicked for 2d4 rounds. This is a sonic mind-affecting fear effect. Whether or not the save is
    successful, an affected creature is immune to the same hound's bay for 24 hours``."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "bay")
    dc = _own_dc(block, item, text)
    rounds = re.search(rf"panicked for ({_DICE}) rounds", text)
    if dc is None or rounds is None:
        return _unread(notes, abilities, item, cell, "bay", "its DC and rounds not read", text)
    return _aura(abilities, "bay", {"effect": "panic", "dc": dc, "save": "will", "rounds": _dice(rounds.group(1))},
                 f"aura: Will DC {dc} once for each foe or panicked for {rounds.group(1)} "
                 "rounds, on its first action")


def _attach(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """Attach and blood drain: the stirge's ("If a stirge hits with a touch attack, it uses its eight pincers to
    latch onto the opponent's body ... dealing 1d4 points of Constitution damage in any round when it begins its
    turn attached ... Once it has dealt 4 points of Constitution damage, it detaches and flies off") and the dire
    weasel's ("latches onto the opponent's body ... A dire weasel drains blood for 1d4 points of Constitution damage
    each round it remains attached"; a weasel "automatically deals bite damage each round it remains attached"):
    a hold that starts on a hit with no check, has no escape (only a pin removes it) and needs no check to keep."""
    desc, text = _text_of(block, item, "attach")
    drain_item = _first(abilities, "blood drain")
    _, drain_text = _text_of(block, drain_item, "blood drain") if drain_item is not None else (None, "")
    hit = re.search(r"hits with (?:a|its) (\w+) attack", text)
    loss = re.search(rf"(?:dealing|for) ({_DICE}) points? of Constitution damage", drain_text)
    names = [a["name"] for r in (data.get("full_attack") or []) + (data.get("attack") or []) for a in r]
    attack = _named(hit.group(1), names) if hit else None
    if attack is None or loss is None or data.get("improved_grab") is not None:
        return _ignored(abilities, "attach", "its attack and blood drain not read")
    limit = re.search(r"Once it has dealt (\d+) points of Constitution damage, it detaches", drain_text)
    grab = {"attack": attack, "constrict": None, "any_size": True, "automatic": True, "hold_check": False,
            "drain": {"dice": _dice(loss.group(1)), "ability": "con"}}
    if limit:
        grab["drain_limit"] = number(limit.group(1))
    bite = "; its bite's damage each round" if re.search(r"bite", attack) else ""
    _set(abilities, "attach", "modelled", f"improved_grab on the {attack} with no grapple check, of any size, no "
                                          f"escape (a pin, which the model has not, removes it){bite}")
    _set(abilities, "blood drain", "modelled", f"improved_grab.drain: {grab['drain']['dice']} Constitution on each "
                                               "of its turns attached" + (f", until {limit.group(1)} points: then "
                                                                          "it flies off" if limit else ""))
    return {"improved_grab": grab}


def _split(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``Slashing and piercing weapons and electricity attacks deal no damage to an ochre jelly. Instead the creature
    splits into two identical jellies, each with half of the original's current hit points (round down). A jelly
    with 10 hit points or less cannot be further split``: immune to those types, and split by them (the second jelly
    joins at the end of the round)."""
    desc, text = _text_of(block, item, "split")
    m = re.search(r"^(.*?) deal no damage to an? [\w ]+?\. Instead the creature splits into two identical \w+, each "
                  r"with half of the original's current hit points", re.sub(r"^[^:]*:\s*", "", text))
    if m is None or not re.search(r"10 hit points or less cannot be further split", text):
        return _ignored(abilities, "split", "its terms not read")
    kinds = [k for k in ("slashing", "piercing", "electricity") if k in m.group(1).lower()]
    _set(abilities, "split", "modelled", f"split: {', '.join(kinds)} deal it no damage and split it in two of half "
                                         "its hit points while it has more than 10 (immunities too); the second "
                                         "joins at the end of the round")
    return {"split": kinds, "immunities": list(dict.fromkeys([*data.get("immunities", []), *kinds]))}


def _acid(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """An ooze's acid that its attacks already carry (``slam (2d4+3 plus 1d4 acid)``) and that harms only flesh (the
    ochre jelly's "dissolves only flesh", the gelatinous cube's "does not harm metal or stone"); one that dissolves
    armour and weapons (a black pudding's, a gray ooze's) stays ignored."""
    desc, text = _text_of(block, item, "acid")
    carried = any(a.get("extra_damage_type") == "acid" for r in (data.get("attack") or []) for a in r)
    harmless = re.search(r"dissolves only flesh|does not harm metal or stone", text)
    if not carried or not harmless or (re.search(r"armor and clothing dissolve", text)
                                                 or search_chain(text, r"weapon ", r" dissolves")):
        return _ignored(abilities, "acid", "its acid dissolves armour and weapons (not modelled)" if carried else
             "no acid damage on its attacks")
    _set(abilities, "acid", "modelled", "the acid damage rides on its attacks (extra_damage); it harms only flesh")
    return {}


def _engulf(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The gelatinous cube's: ``can simply mow down Large or smaller creatures as a standard action ... DC 13
    Reflex save or be engulfed ... subject to the cube's paralysis and acid``: its acid is its slam's (``1d6
    acid``), its paralysis the slam's."""
    desc, text = _text_of(block, item, "engulf")
    m = search_chain(text, r"mow down (\w+) or smaller creatures as a standard action",
                     r"DC (\d+) Reflex save or be engulfed")
    acid = next((a for r in (data.get("attack") or []) for a in r if a.get("extra_damage_type") == "acid"), None)
    if m is None or acid is None or m.group(1).lower() not in SIZE_WORDS:
        return _ignored(abilities, "engulf", "an engulfing of other terms (a cloaker's, a mouther's)")
    _numbers(abilities, "engulf", number(m.group(2)), "ref")
    for a in abilities:
        if a["key"] == "paralysis" and a.get("notes"):
            a["notes"] = a["notes"].replace("; its engulf left out (not an attack the engine rolls)",
                                            "; and on each of its turns inside it (engulf)")
    _set(abilities, "engulf", "modelled", f"engulf: instead of its slam, foes {m.group(1).lower()} or smaller (as "
                                          f"many as a 10-foot burst covers) Reflex DC {m.group(2)} or inside it: out "
                                          f"of the fight, {acid['extra_damage']} acid and its paralysis each turn "
                                          "(the attacks of opportunity that forgo the save, and escaping, are not "
                                          "modelled)")
    return {"engulf": {"dc": number(m.group(2)), "max_size": m.group(1).lower(), "damage": acid["extra_damage"]}}


def _acid_sting(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The giant soldier ant's: ``If it successfully grabs an opponent, it can attempt to sting each round (+3 attack
    bonus). A hit with the sting attack deals 1d4+1 points of piercing damage and 1d4 points of acid damage``: the
    attack it makes each turn it holds a foe (the engine's rake does this)."""
    desc, text = _text_of(block, item, "acid sting")
    m = re.search(rf"sting each round \(([+-]\d+) attack bonus\)\. A hit with the sting attack deals ({_DICE}) points "
                  rf"of piercing damage and ({_DICE}) points of acid damage", text)
    if m is None or data.get("improved_grab") is None or data.get("rake") is not None:
        return _ignored(abilities, "acid sting", "no grab to sting from, or its numbers not read")
    _set(abilities, "acid sting", "modelled", f"the sting it makes each turn it holds a foe: {m.group(1)} melee "
                                              f"({_dice(m.group(2))} piercing plus {_dice(m.group(3))} acid)")
    return {"rake": {"name": "sting", "bonuses": [number(m.group(1))], "damage": _dice(m.group(2)),
                     "damage_types": ["piercing"], "extra_damage": _dice(m.group(3)), "extra_damage_type": "acid"}}


def _instability(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The chaos beast's: ``A blow from a chaos beast against a living creature ... must succeed on a DC 15 Fortitude
    save or become a spongy, amorphous mass ... it attacks blindly, unable to distinguish friend from foe ... A victim
    can regain its own shape by taking a standard action to attempt a DC 15 Charisma check``: on its claws (the
    first attack of its routines)."""
    desc, _ = _text_of(block, item, "corporeal instability")
    text = _following(block, desc, 4)
    dc = re.search(r"DC (\d+) Fortitude save or become a spongy, amorphous mass", text)
    control = re.search(r"regain its own shape by taking a standard action to attempt a DC (\d+) Charisma check", text)
    names = [a["name"] for r in (data.get("full_attack") or []) for a in r]
    if dc is None or control is None or not names:
        return _ignored(abilities, "corporeal instability", "its DCs not read")
    _numbers(abilities, "corporeal instability", number(dc.group(1)), "fort")
    _set(abilities, "corporeal instability", "modelled",
         f"instability on the {names[0]}: Fort DC {dc.group(1)} or amorphous, out of the fight (its blind blows at "
         f"friend and foe alike are left out) until a DC {control.group(1)} Charisma check on one of its turns")
    return {"instability": {"attack": names[0], "dc": number(dc.group(1)), "control_dc": number(control.group(1))}}


def _pipes(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The satyr's: ``all creatures within a 60-foot spread (except satyrs) must succeed on a DC 13 Will save or be
    affected by charm person, sleep, or fear (caster level 10th; the satyr chooses the tune and its effect)``: the
    fear, which affects every foe (charm person only humanoids, sleep only 4 HD): panicked for 10 rounds (the fear
    spell's 1 round per level), on its first action."""
    desc, text = _text_of(block, item, "pipes")
    m = re.search(r"DC (\d+) Will save or be affected by charm person, sleep, or fear \(caster level (\d+)", text)
    if m is None or data.get("aura") is not None:
        return _ignored(abilities, "pipes", "its tunes not read")
    return _aura(abilities, "pipes",
                 {"effect": "panic", "dc": number(m.group(1)), "save": "will", "rounds": m.group(2)},
                 f"aura: the tune of fear (the satyr's choice), Will DC {m.group(1)} once for "
                 f"each foe or panicked for {m.group(2)} rounds, on its first action")


def _always_invisible(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """Invisible all fight, even when attacking: the invisible stalker's ("This ability is constant, allowing a
    stalker to remain invisible even when attacking"), the phantom fungus's greater invisibility, the hellcat's
    ("invisible in any area lit well enough for a human to see": an arena is lit). A creature that can suppress it
    (a pixie's) or that only turns invisible when frightened (a will-o'-wisp's) is not."""
    key = item["key"]
    desc, text = _text_of(block, item, key)
    constant = re.search(r"remain invisible even when attacking|invisible in any area lit well enough", text)
    if constant is None or re.search(r"can suppress", text):
        return _ignored(abilities, key, "an invisibility it can suppress or turns on when frightened (not modelled)")
    _set(abilities, key, "modelled", "invisible all fight, even when it attacks: total concealment (50% miss "
                                     "chance); its +2 and the foe's lost Dexterity bonus as an unseen attacker are "
                                     "left out")
    return {"invisible": True}


def _lay_on_hands(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The avoral's and leonal's: ``As the paladin class feature, except that each day, an avoral can heal an amount
    of damage equal to its full normal hit points``."""
    desc, text = _text_of(block, item, "lay on hands")
    if not re.search(r"heal an amount of damage equal to its full normal hit points", text):
        return _ignored(abilities, "lay on hands", "its amount not read")
    _set(abilities, "lay on hands", "modelled", f"lay_on_hands: {data['hp']} hit points a fight, healing itself as a "
                                                "standard action once below half")
    return {"lay_on_hands": data["hp"]}


def _freedom(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``a continuous freedom of movement ability as the spell``: immune to paralysis and holds (the spell: "moving
    and attacking normally ... even under the influence of magic that usually impedes movement, such as paralysis,
    solid fog, slow, and web"); of the party's spells that is hold person."""
    desc, text = _text_of(block, item, "freedom of movement")
    if not re.search(r"continuous freedom of movement ability as the spell", text):
        return _ignored(abilities, "freedom of movement", "its terms not read")
    _set(abilities, "freedom of movement", "modelled", "immunities: paralysis (freedom of movement: no hold or "
                                                       "paralysis stops it; the party's webs and slows are none)")
    return {"immunities": list(dict.fromkeys([*data.get("immunities", []), "paralysis"]))}


def _nimbus(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The nalfeshnee's smite, a burst: ``Three times per day a nalfeshnee can create a nimbus of unholy light ...
    One round later they burst in a 60-foot radius. Any creature within this area must succeed on a DC 22 Will save or
    be dazed for 1d10 rounds``."""
    desc, text = _text_of(block, item, "smite")
    m = search_chain(text, r"(Once|Twice|Three times) per day [\w' ]{1,80}? can create a nimbus",
                     rf"DC (\d+) Will save or be dazed for ({_DICE}) rounds")
    if m is None:
        return _smite(block, item, abilities, data, notes)
    uses = PER_DAY[m.group(1).lower()]
    _numbers(abilities, "smite", number(m.group(2)), "will")
    _set(abilities, "smite", "modelled", f"burst: {uses} a fight as its standard action, every foe Will DC "
                                         f"{m.group(2)} or dazed {_dice(m.group(3))} rounds (out of the fight, not "
                                         "helpless; the round before it bursts is left out)")
    return {"burst": {"dc": number(m.group(2)), "save": "will", "rounds": _dice(m.group(3)), "uses": uses}}


def _quickness(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The choker's: ``It can take an extra standard action or move action during its turn each round``."""
    desc, text = _text_of(block, item, "quickness")
    if not re.search(r"extra standard action or move action during its turn each round", text):
        return _ignored(abilities, "quickness", "its terms not read")
    _set(abilities, "quickness", "modelled", "quickness: an extra standard attack on each of its turns (the extra "
                                             "action as an attack: the arena has no moving to do)")
    return {"quickness": True}


def _fear_aura(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The devils' (``radiate a 5-foot-radius fear aura as a free action ... DC 17 Will save or be affected as though
    by a fear spell (caster level 7th)``) and the avoral's (``Once per day ... an aura of fear ... identical with
    fear from an 8th-level caster (save DC 17)``): panicked for 1 round per caster level (the fear spell's; the
    shaken round of a made save is left out), each foe once, on its first action."""
    desc, text = _text_of(block, item, "fear aura")
    dc = re.search(r"DC (\d+) Will save or be affected as though by a fear spell \(caster level (\d+)", text) or \
        re.search(r"fear from an (\d+)th-level caster \(save DC (\d+)\)", text)
    if dc is None or data.get("aura") is not None or re.search(r"less than \d+ HD", text):
        return _ignored(abilities, "fear aura", "its DC and caster level not read (or an aura of other terms)")
    save_dc, level = (number(dc.group(1)), dc.group(2)) if "Will save" in dc.group(0) else (number(dc.group(2)),
                                                                                            dc.group(1))
    return _aura(abilities, "fear aura", {"effect": "panic", "dc": save_dc, "save": "will", "rounds": level},
                 f"aura: Will DC {save_dc} once for each foe or panicked for {level} "
                 "rounds (the fear spell's 1 round per level; a made save's shaken "
                 "round is left out), on its first action")


def _blood_drain(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The rast's: ``drains blood from a grabbed opponent, dealing 1 point of Constitution damage each round it
    maintains the hold`` (a stirge's and a weasel's come with their attach)."""
    desc, text = _text_of(block, item, "blood drain")
    m = re.search(rf"from a grabbed opponent, dealing ({_DICE}) points? of Constitution damage each round it "
                  r"maintains the hold", text)
    grab = data.get("improved_grab")
    if m is None or grab is None or grab.get("drain"):
        return _ignored(abilities, "blood drain", "a drain of a pin, or with no hold the engine models")
    _set(abilities, "blood drain", "modelled", f"improved_grab.drain: {_dice(m.group(1))} Constitution on each turn "
                                               "it keeps its hold")
    return {"improved_grab": {**grab, "drain": {"dice": _dice(m.group(1)), "ability": "con"}}}


def _slow(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The ice devil's: ``A hit from an ice devil's tail or spear induces numbing cold. The opponent must succeed on
    a DC 23 Fortitude save or be affected as though by a slow spell for 1d6 rounds`` (on the first of the attacks it
    names in its full attack)."""
    desc, text = _text_of(block, item, "slow")
    m = search_chain(text, r"A hit from an? [\w' ]{1,80}?'s ([a-z ]{1,80}?) induces ",
                     rf" DC (\d+) Fortitude save or be affected as though by a slow spell for ({_DICE}) rounds")
    names = [a["name"] for r in (data.get("full_attack") or []) + (data.get("attack") or []) for a in r]
    words = [w.strip() for w in re.split(r"\s+or\s+|\s+and\s+", m.group(1))] if m else []
    found = [n for n in names if any(_named(w, [n]) for w in words)]
    if not found:
        return _ignored(abilities, "slow", "a slow effect of its own action, or its attack not read")
    attack = found[0]
    how = f" (the SRD's also on its {' and '.join(w for w in words if not _named(w, [attack]))})" \
        if len(words) > 1 else ""
    _numbers(abilities, "slow", number(m.group(2)), "fort")
    _set(abilities, "slow", "modelled", f"slow on the {attack}: Fort DC {m.group(2)} or slowed {_dice(m.group(3))} "
                                        f"rounds (one action a turn){how}")
    return {"slow_on_hit": {"attack": attack, "dc": number(m.group(2)), "rounds": _dice(m.group(3))}}


def _petrification(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``Creatures hit by a cockatrice's bite attack must succeed on a DC 12 Fortitude save or instantly turn to
    stone``."""
    desc, text = _text_of(block, item, "petrification")
    m = re.search(r"hit by an? [\w' ]+?'s (\w+) attack must succeed on a DC (\d+) Fortitude save or instantly turn "
                  r"to stone", text)
    names = [a["name"] for r in (data.get("full_attack") or []) + (data.get("attack") or []) for a in r]
    attack = _named(m.group(1), names) if m else None
    if attack is None:
        return _ignored(abilities, "petrification", "its attack and DC not read")
    _numbers(abilities, "petrification", number(m.group(2)), "fort")
    _set(abilities, "petrification", "modelled", f"petrification on the {attack}: Fort DC {m.group(2)} or stone")
    return {"petrification": {"attack": attack, "dc": number(m.group(2))}}


def _evasion(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``With a successful Reflex save against an attack that allows a Reflex save for half damage, a giant eagle
    takes no damage``."""
    desc, text = _text_of(block, item, "evasion")
    if text and not re.search(r"successful Reflex save .* takes no damage", text):
        return _ignored(abilities, "evasion", "not the SRD's evasion")
    _set(abilities, "evasion", "modelled", "evasion: a made Reflex save against half damage takes none")
    return {"evasion": True}


def _spit_acid(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The ankheg's ``30-ft. line, once every 6 hours; damage 4d4 acid, Reflex DC 14 half``: a breath weapon once a
    fight (its bite's acid, which the SRD says the spitting uses up for 6 hours, is left in)."""
    cell = block.get(_field_name(item))
    desc, text = _text_of(block, item, "spit acid")
    m = re.search(rf"(?<!\d)(\d+)-ft\. line, once every \d+ hours; damage ({_DICE}) acid, Reflex DC (\d+) half", text)
    if m is None or data.get("breath_weapon"):
        return _unread(notes, abilities, item, cell, "spit acid", "its line, damage and DC not read", text)
    weapon = {"shape": "line", "length_ft": number(m.group(1)), "damage": _dice(m.group(2)), "damage_type": "acid",
              "save": "ref", "dc": number(m.group(3)), "recharge": "100", "half_on_save": True}
    _numbers(abilities, "spit acid", weapon["dc"], "ref")
    _set(abilities, "spit acid", "modelled", f"breath_weapon: {weapon['length_ft']}-ft. line of {weapon['damage']} "
                                             f"acid, Reflex DC {weapon['dc']} half, once a fight (recharge 100 "
                                             "rounds); the bite's acid it uses up is left in")
    return {"breath_weapon": weapon}


def _spikes(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The manticore's ``volley of six spikes as a standard action (make an attack roll for each spike)``: its
    ranged routine (``6 spikes +8 ranged``), one of the routines the engine chooses between."""
    ranged = [a for r in (data.get("full_attack") or []) for a in r if a.get("kind") == "ranged"
              and re.match(r"spike", a["name"])]
    if not ranged:
        return _ignored(abilities, "spikes", "no spike volley in its routines")
    _set(abilities, "spikes", "modelled", f"its ranged routine: {ranged[0].get('count', 1)} spikes "
                                          f"{ranged[0]['bonuses'][0]:+d}; the engine fights with its melee routine "
                                          "when it can (its 24 spikes a day are left out)")
    return {}


def _horrific(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """The sea hag's ``anyone ... who sets eyes upon one must succeed on a DC 13 Fortitude save or instantly be
    weakened, taking 2d6 points of Strength damage ... Creatures that are affected by this power or that
    successfully save against it cannot be affected again by the same hag's horrific appearance for 24 hours``."""
    desc, text = _text_of(block, item, "horrific appearance")
    m = re.search(rf"DC (\d+) Fortitude save or instantly be weakened, taking ({_DICE}) points of Strength damage",
                  text)
    if m is None or data.get("aura") is not None:
        return _ignored(abilities, "horrific appearance", "its DC and damage not read")
    _numbers(abilities, "horrific appearance", number(m.group(1)), "fort")
    _set(abilities, "horrific appearance", "modelled", f"aura: Fort DC {m.group(1)} once for each foe or "
                                                       f"{_dice(m.group(2))} Strength damage, on its first action")
    return {"aura": {"effect": "weakness", "dc": number(m.group(1)), "save": "fort",
                     "loss": {"dice": _dice(m.group(2)), "ability": "str"}}}


# --------------------------------------------------------------------------------------------- smite
def _smite(block: RawBlock, item: dict, abilities: list[dict], data: dict, notes: Notes) -> dict:
    """``Once per day an abyssal greater basilisk can make a normal melee attack to deal an extra 18 points of damage
    against a good foe``; ``extra damage equal to its HD (maximum of +20)``."""
    desc, text = _text_of(block, item, item["name"], "smite good", "smite evil", "smite")
    m = search_chain(text, r"\b(Once|Twice|Three times) per day\b", r"\bagainst an? (good|evil) (?:foe|opponent)",
                     flags=re.IGNORECASE)
    extra = re.search(r"extra (\d+) points of damage|deal (\d+) points of extra damage", text)
    if m is None or (extra is None and not re.search(r"equal to its HD", text)) or \
            re.search(r"bonus that deals|adds his", text):
        return _ignored(abilities, "smite", "its uses, foe and extra damage not read (or a bonus on the attack "
                                            "roll the engine's smite has not)")
    damage = number(extra.group(1) or extra.group(2)) if extra else min(20, _hit_dice(data))
    against = m.group(2).lower()
    uses = PER_DAY[m.group(1).lower()]
    applies = "the party counts as good: it applies" if against == "good" else \
        "the party is not evil: it never applies"
    _set(abilities, "smite", "modelled", f"smite {against}: +{damage} damage on a hit with its first melee attack, "
                                         f"{uses} a fight ({applies})")
    return {"smite": {"against": against, "damage": damage, "uses": uses}}


__all__ = ["NUMBER_WORDS", "special_fields"]

"""Special attacks and special qualities of SRD 3.5 stat blocks: what each one is, its SRD numbers, and whether the
fight engine models it.

The engine fights with these stat-block fields (``arena.combat`` reads them): breath weapons (a cone or line of
damage with a save), rend, trip on a hit, damage reduction, regeneration, fast healing, spell resistance, energy
resistance, immunities (a type's traits included) and vulnerabilities, sneak attack, energy damage riding on an
attack (``plus 1d6 fire``), touch attacks and critical ranges; and, once the attacks are read
(:mod:`arena.srd.holds`), pounce, ferocity, improved grab with constrict, frightful presence and paralysis.
An ability that becomes one of those is ``modelled``. Senses, languages, movement and the like do nothing in an
arena fight (``no effect``). Everything else that matters in a fight (poison, swallow whole, gaze attacks,
spell-like abilities, ...) is ``ignored`` until the engine learns it: :data:`IGNORED` lists the common ones, and
an ability the vocabulary does not know but the block's text describes (``Name (Ex): ...``) counts as ignored
too. An ability neither known nor described is an unknown special ability (an error of the block).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arena.limits import MAX_IMPORT_ABILITIES
from arena.srd.fields import ENERGY_WORDS, FieldError, Notes, _clean, _top_level_split, is_dash, number
from arena.srd.text import Cell, RawBlock, described_abilities, description_of, drop_parens, rule_above

# --------------------------------------------------------------------------------------------- the vocabulary
NO_EFFECT: dict[str, tuple[str, ...]] = {
    # key: patterns (regular expressions on the lowercase name, numbers and parentheses removed)
    "darkvision": ("darkvision",), "low-light vision": (r"low-? ?light vision", "superior low-light vision",
                                                        "superior lowlight vision"),
    "scent": ("scent", "keen scent"), "blindsight": ("blindsight",), "blindsense": ("blindsense",),
    "tremorsense": ("tremorsense",), "see in darkness": ("see in darkness",), "keen senses": ("keen senses",),
    "all-around vision": ("all-around vision", "all around vision"), "lifesense": ("lifesense",),
    "electricity sense": ("electricity sense",), "true seeing": ("true seeing",),
    "see invisibility": ("see invisibility",), "detect": (r"detect \w+", "detect thoughts"),
    "telepathy": ("telepathy",), "tongues": ("tongues",), "speak with animals": (r"speak with \w+",),
    "empathy": (r"(wild|bear|boar|wolf|rat|tiger|animal) empathy",), "hold breath": ("hold breath",),
    "amphibious": ("amphibious",), "water breathing": ("water breathing",), "aquatic": ("aquatic subtype",),
    "water dependent": ("water dependent", "tree dependent", "freshwater sensitivity"),
    "light sensitivity": ("light sensitivity", "light blindness", "aversion to daylight",
                          r"(daylight|sunlight) powerlessness", "vulnerability to sunlight"),
    "unnatural aura": ("unnatural aura",), "alternate form": ("alternate form", "change shape", "mimic shape",
                                                              "change size", "shapechanger"),
    "mimicry": ("mimicry", "sound imitation", "babble"),
    "tracking": ("improved tracking", "track"), "trap sense": ("trap sense",),
    "favored enemy": (r"favored enemy.*",), "guarded thoughts": ("guarded thoughts",),
    "travel": ("plane shift", "teleport", "dimension door", "astral projection", "planewalk", "etherealness",
               "ethereal jaunt", "earth glide", "shadow shift", "find target", "find master", "flight",
               "freshwater", "spider climb", "water walk", "rush", "sprint", "leap", "jet", "ink cloud",
               "gaseous form", "smoke form", "greater teleport"),
    "rock catching": ("rock catching",), "hive mind": ("hive mind",), "stability": ("stability",
                                                                                 "can't be tripped"),
    "mindless": ("mindless",), "amorphous": ("amorphous",), "elemental endurance": ("elemental endurance",),
    "transparent": ("transparent", "camouflage"), "turn resistance": ("turn resistance",),
    "turn undead": ("turn undead", "rebuke undead", "command undead"), "create spawn": ("create spawn",),
    "curse of lycanthropy": ("curse of lycanthropy",), "aquatic subtype": ("aquatic subtype",),
    "disease": ("disease", "mummy rot", "ghoul fever", "filth fever", "demon fever", "devil chills", "red ache",
                "slimy doom"),
    "racial traits": (
        r"(dwarf|elven|elf|gnome|halfling|drow|duergar|svirfneblin|orc|half-orc|human) traits",),
    "oversized weapon": ("oversized? weapon", r"superior two.?weapon( fighting)?", "superior two",
                         "rock throwing"),
    "double damage against objects": ("double damage against objects",), "feed": ("feed",),
    "single actions only": ("single actions only",), "water mastery": ("water mastery", "air mastery"),
    "make whole": ("make whole",), "inhabit": ("inhabit",), "dream haunting": ("dream haunting",),
    "shield guardian's amulet": ("find master", "guard"), "dominated creature": ("dominated creature",),
    "sunlight vulnerability": ("sunlight vulnerability",), "paladin abilities": ("paladin abilities",),
    "resistance to charm": ("resistance to charm",), "unearthly grace": (),
    "summon familiar": ("summon familiar",), "light": ("daylight", "blinding beauty"),
    "natural armor": ("natural armor",), "flaming hooves": ("flaming hooves",), "shield other": ("shield other",),
    "skills": ("skills",), "none": ("none", "see text", "also see text",
                                                                           "see below"),
    "utility spell-like abilities": (
        "locate object", "create/destroy water", "create water", "ventriloquism", "hallucinatory terrain", "veil",
        "mirage arcana", "plant growth", "corrupt water", "find the path", "discern location", "endure elements",
        "create food and water", "detect gems", "control water", "control weather", "control winds", "move earth",
        "geas/quest", "feather fall", "icewalking", "cloudwalking", "luck bonus", "charm reptiles",
        "command plants", "woodland stride", "trackless step", "speak with plants", "tree shape", "tree stride",
        "dancing lights", "clairaudience/clairvoyance", "levitate", "commune with nature", "pass without trace",
        "foresight"),
}
"""Abilities with no effect in an arena fight (senses, languages, travel, racial trait lists that only shift a
skill, abilities whose numbers are already in the block)."""

IGNORED: dict[str, tuple[str, ...]] = {
    "improved grab": ("improved grab", "grab"), "constrict": ("constrict",), "swallow whole": ("swallow whole",),
    "poison": ("poison",), "paralysis": ("paralysis", "paralyis", "paralyzing touch", "paralytic tentacles"),
    "frightful presence": ("frightful presence",), "fear aura": ("fear aura", "fear"),
    "trample": ("trample",), "pounce": ("pounce",), "rake": ("rake",), "energy drain": ("energy drain",),
    "ability damage": (r"(strength|dexterity|constitution|intelligence|wisdom|charisma|str|dex|con|int|wis|cha) "
                       r"damage", "ability damage"),
    "ability drain": (r"(strength|dexterity|constitution|intelligence|wisdom|charisma|str|dex|con|int|wis|cha) "
                      r"drain", "ability drain"),
    "gaze": (r".*gaze", "evil eye", "stunning glance"),
    "spell-like abilities": (r"spell-? ?like abilit(y|ies)", "psionics", "greater invisibility", "darkness",
                             "charm person", "dominate monster", "cure serious wounds", "animate objects",
                             "animate trees", "stone shape", "entangle", "haste", "slow", "charm",
                             "dimensional anchor", "magic circle against evil", "magic circle against good",
                             "sleep", "enslave", "suggestion", "dominate person", "insect plague", "fog cloud",
                             "gust of wind", "freezing fog", "wall of ice", "wall of stone", "sunburst",
                             "reverse gravity", "bless", "transmute rock to mud/mud to rock", "transmute rock to mud",
                             "deep slumber", "faerie fire", "dispel magic", "scare", "vampiric touch"),
    "spells": ("spells", "spell", "arcane spells", "divine spells"),
    "summon": (r"summon (?!familiar)\w+.*",), "web": ("web",), "stench": ("stench",), "attach": ("attach",),
    "incorporeal": ("incorporeal traits", "incorporeal", "incorporeal subtype"),
    "swarm": ("swarm traits", "swarm subtype", r"swarm \(automatic hit.*"), "distraction": ("distraction",),
    "breath weapon": ("breath weapon",), "breath weapon (non-damage)": (r"\w+ breath weapon",),
    "damage reduction (a and b)": (), "immunity to magic": ("immunity to magic",),
    "smite": (r"smite \w+", "smite"), "rage": ("rage", "berserk", "battle frenzy", "blood frenzy"),
    "ferocity": ("ferocity",), "whirlwind": ("whirlwind", "whirlwind blast"), "vortex": ("vortex",),
    "ray": (r".*\bray", "eye rays"), "blood drain": ("blood drain",), "acid": ("acid",),
    "natural invisibility": ("natural invisibility",), "immune to weapon damage": ("immune to weapon damage",
                                                                                 "immunity to weapon damage"),
}
KNOWN_IGNORED = frozenset({
    "powerful charge", "stampede", "engulf", "burn", "heat", "flaming body", "fiery aura", "combustion",
    "corrosive slime", "acid spray", "spit acid", "spit", "spittle", "acid sting", "protective slime", "slime",
    "rust", "melt weapons", "rend armor", "crush item", "protective aura", "desecrating aura", "aura of evil",
    "dark blessing", "aura of menace", "aura of despair", "despair", "horrific appearance", "unnerving gaze",
    "lay on hands", "evasion", "uncanny dodge", "invisible in light", "shadow blend", "blink", "split",
    "death throes", "explosion", "cursed wound", "wounding", "infernal wound", "moan", "howl", "roar", "shriek",
    "trumpet", "stunning screech", "captivating song", "gibbering", "destructive harmonics", "sonic lance", "trill",
    "fiddle", "pipes", "bay", "kiss", "madness", "stun", "dance of ruin", "crush", "tail sweep", "earth mastery",
    "push", "drench", "capsize", "ground manipulation", "freeze", "impale", "quills", "spikes", "barbed defense",
    "beard", "dancing chains", "positive energy lash", "stunning shock", "lethal shock",
    "fists of thunder and lightning", "special arrows", "vorpal sword", "implant", "trap essence",
    "corporeal instability", "quickness", "resilient", "carapace", "spell deflection", "freedom of movement",
    "protection from sonics", "half damage from slashing and piercing", "magic drain", "snatch", "drag",
    "strands", "adhesive", "smoke", "black cloud", "mucus cloud", "spores", "weakness", "enervation ray",
    "poison use", "smoke claws", "petrification",
})
"""Abilities the importer knows that matter in a fight, each its own key."""
"""Abilities that matter in a fight and the engine does not model yet, grouped where they are one mechanic
(the key is what the coverage counts)."""

MODELLED_KEYS = ("damage reduction", "spell resistance", "regeneration", "fast healing", "energy resistance",
                 "immunity", "vulnerability", "type traits", "rend", "trip", "breath weapon", "sneak attack",
                 "energy damage", "augmented critical")

TRAITS = {"undead traits": "undead", "construct traits": "construct", "elemental traits": "elemental",
          "plant traits": "plant", "ooze traits": "ooze", "vermin traits": "vermin", "dragon traits": "dragon"}

IMMUNITY_WORDS = {
    "fire": "fire", "cold": "cold", "acid": "acid", "electricity": "electricity", "sonic": "sonic",
    "poison": "poison", "disease": "disease", "sleep": "sleep", "sleep effects": "sleep", "magic sleep": "sleep",
    "paralysis": "paralysis", "stunning": "stunning", "mind-affecting effects": "mind-affecting",
    "mind-affecting spells and abilities": "mind-affecting", "mind-affecting": "mind-affecting",
    "critical hits": "critical hits", "death effects": "death effects", "ability damage": "ability damage",
    "ability drain": "ability drain", "energy drain": "energy drain", "polymorph": "polymorph",
    "nonlethal damage": "nonlethal damage", "necromancy effects": "necromancy", "fatigue": "fatigue",
    "exhaustion": "exhaustion", "sneak attacks": "sneak attack", "sneak attack": "sneak attack",
    "flanking": "flanking", "maze": "maze",
}
"""Immunities the model carries (:data:`arena.world.stat_types.Effect` and damage types)."""
IMMUNITY_NO_EFFECT = {"petrification", "charm", "charm effects", "fear", "transformation", "gaze attacks",
                      "visual effects", "illusions", "blindness", "deafness", "dazing", "confusion", "daze",
                      "cold iron", "mind reading", "scrying", "detection", "ethereal"}
"""Immunities to things no arena fight does to a monster (the party casts no petrification, charm or fear)."""
IMMUNITY_IGNORED = {"magic": "immunity to magic", "compulsion": "immunity to compulsion",
                    "weapon damage": "immune to weapon damage"}


@dataclass
class Effects:
    """What the special abilities put into the stat block's engine fields."""

    damage_reduction: dict | None = None
    spell_resistance: int = 0
    regeneration: dict | None = None
    fast_healing: int = 0
    energy_resistance: dict[str, int] = field(default_factory=dict)
    immunities: list[str] = field(default_factory=list)
    vulnerabilities: list[str] = field(default_factory=list)
    rend: dict | None = None
    trip: bool = False
    breath_weapon: dict | None = None
    sneak_attack: str | None = None
    abilities: list[dict] = field(default_factory=list)


def _norm(text: str) -> str:
    t = _clean(text).lower()
    t = drop_parens(t, " ")
    t = re.sub(r"[+]?(?<!\d)\d+d\d+(?:[+-]\d+)?", " ", t)
    t = re.sub(r"[+-]?\d+(?:/\w[\w -]*)?", " ", t)
    t = re.sub(r"\b(ft|feet)\b\.?", " ", t)
    t = " ".join(t.replace("*", " ").replace("’", "'").split())     # one space: "\s+(or|and)" rescans no run
    t = re.sub(r"^\s*(and|or)\s+", "", t)
    t = re.split(r"\s+plus\s+|\s+or\s*$", t)[0]
    t = re.sub(r"\s+(or|and)\s*$", "", t)
    return " ".join(t.strip(" .,;:").split())


def _match(name: str, table: dict[str, tuple[str, ...]]) -> str | None:
    for key, patterns in table.items():
        if name == key or any(re.fullmatch(p, name) for p in patterns):
            return key
    return None


_ENERGY_ALT = "|".join(ENERGY_WORDS)


def split_items(cell: Cell | None) -> list[str]:
    """The entries of a Special Attacks / Special Qualities cell, immunity and resistance lists kept together."""
    if cell is None or is_dash(cell.text):
        return []
    parts = _top_level_split(_clean(cell.text), (",", ";"))
    out: list[str] = []
    for part in parts:
        part = part.strip().rstrip(".")
        if not part or is_dash(part):
            continue
        bare = re.sub(r"^(and|or)\s+", "", part.lower()).strip()
        if out:
            last = out[-1].lower()
            if last.startswith(("immunity to", "immune to")) and (bare in IMMUNITY_WORDS or bare in
                                                                  IMMUNITY_NO_EFFECT or bare in IMMUNITY_IGNORED
                                                                  or bare.split(" and ")[0] in IMMUNITY_WORDS):
                out[-1] = f"{out[-1]}, {part}"
                continue
            if last.startswith(("resistance to", "resist")) and re.match(
                    rf"^({_ENERGY_ALT})\s+\d+$", bare):
                out[-1] = f"{out[-1]}, {part}"
                continue
        out.append(part)
    return out


def _listed(text: str) -> list[str]:
    """``fire, poison, and ability damage`` -> the items."""
    items = []
    for part in re.split(r",|\band\b", text):
        part = part.strip().strip(".").strip()
        if part:
            items.append(part)
    return items


_DC = re.compile(r"\bDC\s*(\d+)")
_SAVE = re.compile(r"\b(Fortitude|Reflex|Will)\b")
_DICE = re.compile(r"\b(\d+d\d+(?:\s*[+-]\s*\d+)?)\b")
_DAMAGE_DICE = re.compile(r"\b(\d+d\d+(?:\s*[+-]\s*\d+)?) points? of (?:[a-z]+ )?damage|\bdamage (\d+d\d+(?:[+-]\d+)?)")
SAVE_KEYS = {"Fortitude": "fort", "Reflex": "ref", "Will": "will"}
ENERGY_RIDER = re.compile(r"extra (\d+d\d+(?:[+-]\d+)?) points? of (fire|cold|acid|electricity|sonic) damage")


def _numbers(description: str | None, entry: str) -> dict:
    """The SRD numbers of an ability: its save and DC (when the description gives one), its damage dice."""
    out: dict = {}
    m = _DICE.search(entry)
    if m:
        out["damage"] = m.group(1).replace(" ", "")
    dc = _DC.search(entry)
    if dc:
        out["dc"] = number(dc.group(1))
    if description:
        dcs = set(_DC.findall(description))
        saves = _SAVE.findall(description)
        if len(dcs) == 1 and "dc" not in out:
            out["dc"] = number(dcs.pop())
        if saves and len(set(saves)) == 1:
            out["save"] = SAVE_KEYS[saves[0]]
        if "damage" not in out:
            d = _DAMAGE_DICE.search(description)
            if d:
                out["damage"] = (d.group(1) or d.group(2)).replace(" ", "")
    return out


@dataclass
class Item:
    """One special ability as read, before it becomes a :class:`~arena.world.creatures.SpecialAbility`."""

    name: str
    key: str
    kind: str
    engine: str
    text: str
    notes: str = ""
    numbers: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out = {"name": self.name[:200], "key": self.key, "kind": self.kind, "engine": self.engine,
               "text": self.text[:600]}
        for k in ("save", "dc", "damage", "amount"):
            if self.numbers.get(k) is not None:
                out[k] = self.numbers[k]
        if self.notes:
            out["notes"] = self.notes
        return out


class UnknownAbility(Exception):
    def __init__(self, name: str):
        self.name = name
        super().__init__(name)


def _described(block: RawBlock, name: str) -> Cell | None:
    cell = description_of(block, name)
    if cell is None and " " in name:
        cell = description_of(block, name.split(" ")[0]) if len(name.split(" ")[0]) > 4 else None
    return cell


def _dr(text: str) -> tuple[dict | None, str]:
    m = re.search(r"(?<!\d)(\d+)\s*/\s*([^,;]*)", text)
    if not m:
        return None, "not read"
    amount, rest = number(m.group(1)), m.group(2).strip().strip(".").lower()
    if rest in ("-", "--", "—", "–", ""):
        return {"amount": amount, "overcome_by": []}, ""
    words = [w.strip() for w in re.split(r"\s+or\s+|,", rest) if w.strip()]
    if " and " in rest:
        parts = [w.strip() for w in rest.split(" and ")]
        return {"amount": amount, "overcome_by": parts, "and": True}, "and"
    return {"amount": amount, "overcome_by": words}, ""


DR_WORDS = {"bludgeoning", "piercing", "slashing", "magic", "silver", "cold iron", "adamantine", "good", "evil",
            "lawful", "chaotic", "epic"}


def read_abilities(block: RawBlock, notes: Notes, size: str, str_mod: int) -> Effects:
    """Every special attack and quality of ``block``: their engine fields and their :class:`Item` records."""
    effects = Effects()
    described = described_abilities(block)
    entries = {name: split_items(block.get(name)) for name in ("Special Attacks", "Special Qualities")}
    total = sum(map(len, entries.values()))
    if total > MAX_IMPORT_ABILITIES:
        name = max(entries, key=lambda k: len(entries[k]))
        raise FieldError(name, block.get(name), f"{total:,} special attacks and qualities: more than a stat block "
                                                f"may list (the limit is {MAX_IMPORT_ABILITIES})")
    for field_name, kind in (("Special Attacks", "attack"), ("Special Qualities", "quality")):
        cell = block.get(field_name)
        for entry in entries[field_name]:
            try:
                items = _read_entry(entry, kind, block, cell, notes, effects, size, str_mod, described)
            except UnknownAbility as err:
                notes.add("unread", field_name, cell, f"unknown special ability {err.name!r}: not an SRD ability "
                                                      "the importer knows, and the text describes no "
                                                      f"'{err.name} (Ex/Su/Sp): ...'; counted as ignored", err.name)
                items = [Item(name=err.name[:200], key=_norm(err.name)[:200] or "unknown", kind=kind,
                              engine="ignored", text=err.name, notes="unknown to the importer")]
            effects.abilities.extend(item.as_dict() for item in items)
    return effects


def _item(name: str, key: str, kind: str, engine: str, entry: str, desc: Cell | None, notes_text: str = "",
          numbers: dict | None = None) -> Item:
    text = entry
    if desc is not None:
        text = f"{entry} -- {desc.text.strip()[:400]}"
    return Item(name=name, key=key, kind=kind, engine=engine, text=text, notes=notes_text,
                numbers=numbers if numbers is not None else _numbers(desc.text if desc else None, entry))


def _read_entry(entry: str, kind: str, block: RawBlock, cell: Cell, notes: Notes, fx: Effects, size: str,
                str_mod: int, described: dict) -> list[Item]:
    name = _norm(entry)
    low = _clean(entry).lower()
    shown = re.sub(r"\s+", " ", entry).strip()
    if not name:
        return []
    # -- modelled: the engine's fields
    if name.startswith(("damage reduction", "dr")) and re.search(r"(?<!\d)\d+\s*/", low):
        dr, how = _dr(low)
        if dr is None:
            notes.add("unread", cell_name(kind), cell, f"damage reduction {shown!r} not read", shown)
            return [_item(shown, "damage reduction", kind, "ignored", shown, None, "not read")]
        unknown = [w for w in dr["overcome_by"] if w not in DR_WORDS]
        if unknown:
            notes.add("guess", cell_name(kind), cell, f"damage reduction {shown!r}: {', '.join(unknown)} not a "
                                                      "material the model knows: left out", shown)
            dr["overcome_by"] = [w for w in dr["overcome_by"] if w in DR_WORDS]
        if how == "and":
            fx.damage_reduction = {"amount": dr["amount"], "overcome_by": dr["overcome_by"], "all_needed": True}
            return [_item(shown, "damage reduction (a and b)", kind, "modelled", shown, None,
                          f"damage_reduction: only a weapon that is {' and '.join(dr['overcome_by'])} bypasses it "
                          "(all_needed)", {"amount": dr["amount"]})]
        fx.damage_reduction = {"amount": dr["amount"], "overcome_by": dr["overcome_by"]}
        return [_item(shown, "damage reduction", kind, "modelled", shown, None, "damage_reduction",
                      {"amount": dr["amount"]})]
    m = re.match(r"^(spell resistance|sr)\s*(\d+)", low)
    if m:
        fx.spell_resistance = number(m.group(2))
        return [_item(shown, "spell resistance", kind, "modelled", shown, None, "spell_resistance",
                      {"amount": number(m.group(2))})]
    m = re.match(r"^fast healing\s*(\d+)", low)
    if m:
        fx.fast_healing = number(m.group(1))
        return [_item(shown, "fast healing", kind, "modelled", shown, None, "fast_healing",
                      {"amount": number(m.group(1))})]
    m = re.match(r"^regeneration\s*(\d+)", low)
    if m:
        return [_regeneration(number(m.group(1)), shown, kind, block, cell, notes, fx)]
    if low.startswith(("resistance to", "resist ")) and re.search(r"\d", low):
        found = re.findall(rf"({_ENERGY_ALT})\s*(\d+)", low)
        for word, amount in found:
            energy = ENERGY_WORDS[word]
            if energy in ("fire", "cold", "acid", "electricity", "sonic"):
                fx.energy_resistance[energy] = max(fx.energy_resistance.get(energy, 0), number(amount))
        if not found:
            notes.add("unread", cell_name(kind), cell, f"resistance {shown!r} not read", shown)
        return [_item(shown, "energy resistance", kind, "modelled" if found else "ignored", shown, None,
                      "energy_resistance")]
    if low.startswith(("immunity to", "immune to", "immunities")):
        return _immunities(shown, low, kind, fx)
    if low.startswith("vulnerability to") or low.startswith("vulnerable to"):
        what = low.split(" to ", 1)[1].strip(". ")
        items = []
        for word in _listed(what):
            energy = ENERGY_WORDS.get(word)
            if energy:
                fx.vulnerabilities.append(energy)
                items.append(_item(shown, "vulnerability", kind, "modelled", shown, None, "vulnerabilities"))
            else:
                items.append(_item(shown, "sunlight vulnerability" if "sun" in word else "vulnerability", kind,
                                   "no effect", shown, None))
        return items
    if name in TRAITS:
        return [_item(shown, "type traits", kind, "modelled", shown, None,
                      f"the {TRAITS[name]} type's immunities")]
    if name == "rend":
        desc = _described(block, "rend")
        dmg = _DICE.search(low)
        if dmg:
            attack = "claw"
            if desc:
                am = re.search(r"hits with (?:both|two) (\w+?)s? attacks", desc.text)
                if am:
                    attack = am.group(1).lower()
            fx.rend = {"damage": dmg.group(1).replace(" ", ""), "attack": attack}
            return [_item(shown, "rend", kind, "modelled", shown, desc, "rend")]
        notes.add("unread", cell_name(kind), cell, "rend without damage dice: not modelled", shown)
        return [_item(shown, "rend", kind, "ignored", shown, desc, "no damage dice")]
    if name == "trip":
        fx.trip = True
        return [_item(shown, "trip", kind, "modelled", shown, _described(block, "trip"), "trip on the bite")]
    if name == "sneak attack":
        dmg = _DICE.search(low)
        if dmg:
            fx.sneak_attack = dmg.group(1)
            return [_item(shown, "sneak attack", kind, "modelled", shown, None, "sneak_attack on every attack")]
    if name == "natural cunning":                    # minotaur: immune to maze, never caught flat-footed
        fx.immunities.append("maze")
        return [_item(shown, "natural cunning", kind, "modelled", shown, _described(block, "natural cunning"),
                      "immunities: maze; never flat-footed: its flat-footed AC is its AC")]
    if name == "augmented critical":
        return [_item(shown, "augmented critical", kind, "modelled", shown, _described(block, "augmented critical"),
                      "the threat range and multiplier are in the attack")]
    if name == "breath weapon":
        return [_breath(shown, kind, block, cell, notes, fx, size)]
    # -- no effect / ignored vocabulary
    key = _match(name, NO_EFFECT)
    if key:
        note = "incubation of a day or more (mummy rot: a minute): nothing within a fight" if key == "disease" else ""
        return [_item(shown, key, kind, "no effect", shown, None, note)]
    key = _match(name, IGNORED) or (name if name in KNOWN_IGNORED else None)
    desc = _described(block, name)
    if key == "spell-like abilities" and desc is not None and re.search(r"\((Ex|Su)\)\s*:", desc.text[:80]) \
            and not re.fullmatch(r"spell-? ?like abilit(y|ies)|psionics", name):
        key = name                              # a balor's whip "Entangle (Ex)" is not the spell
    if key:
        return [_item(shown, key, kind, "ignored", shown, desc)]
    if desc is not None or name in described:
        return [_item(shown, name, kind, "ignored", shown, desc,
                      "not in the importer's vocabulary: counted as mattering in a fight")]
    raise UnknownAbility(shown)


def cell_name(kind: str) -> str:
    return "Special Attacks" if kind == "attack" else "Special Qualities"


def _immunities(shown: str, low: str, kind: str, fx: Effects) -> list[Item]:
    what = re.sub(r"^(immunity to|immune to|immunities)\s*", "", low).strip(". ")
    items: list[Item] = []
    modelled, no_effect = [], []
    for word in _listed(what):
        word = word.strip()
        if word in IMMUNITY_WORDS:
            fx.immunities.append(IMMUNITY_WORDS[word])
            modelled.append(word)
        elif word in IMMUNITY_IGNORED:
            items.append(_item(shown, IMMUNITY_IGNORED[word], kind, "ignored", shown, None))
        else:
            no_effect.append(word)
    if modelled:
        items.append(_item(shown, "immunity", kind, "modelled", shown, None, f"immunities: {', '.join(modelled)}"))
    if no_effect:
        items.append(_item(shown, "immunity (no effect)", kind, "no effect", shown, None,
                           f"nothing in a fight does {', '.join(no_effect)}"))
    return items


def _regeneration(amount: int, shown: str, kind: str, block: RawBlock, cell: Cell, notes: Notes,
                  fx: Effects) -> Item:
    desc = _described(block, "regeneration")
    overcome: list[str] = []
    if desc is not None:
        text = desc.text.lower()
        head = re.split(r"deals? normal damage|deal normal damage", text)[0]
        head = head.replace("silvered", "silver")
        for word in ("fire", "acid", "cold", "electricity", "sonic", "bludgeoning", "piercing", "slashing",
                     "silver", "cold iron", "good", "evil", "lawful", "chaotic", "holy", "epic", "adamantine"):
            if re.search(rf"\b{word}\b", head):
                overcome.append("good" if word == "holy" else word)
        if "no form of attack" in text:
            overcome = []
    overcome = list(dict.fromkeys(overcome))
    if not overcome:
        if "no form of attack" in (desc.text.lower() if desc else ""):
            guess = ["epic"]
            message = (f"regeneration {amount}: no form of attack deals normal damage; the model needs one: epic "
                       "(nothing a party below epic levels has)")
        else:
            guess = ["fire", "acid"]
            message = f"regeneration {amount}: what deals normal damage not read: fire and acid"
        notes.add("guess", "Special Qualities", cell, message, shown)
        overcome = guess
    fx.regeneration = {"amount": amount, "overcome_by": overcome}
    return _item(shown, "regeneration", kind, "modelled", shown, desc, "regeneration", {"amount": amount})


_BREATH_SHAPE = re.compile(r"(?<!\d)(\d+)[- ](?:foot|feet|ft\.?)[- ](cone|line)", re.IGNORECASE)


def _breath(shown: str, kind: str, block: RawBlock, cell: Cell, notes: Notes, fx: Effects, size: str) -> Item:
    desc = _described(block, "breath weapon")
    if desc is None:
        return _item(shown, "breath weapon", kind, "ignored", shown, None, "no description of it in the text")
    text = desc.text
    numbers = _numbers(text, "")
    shape = _BREATH_SHAPE.search(text)
    dmg = re.search(r"damage (\d+d\d+(?:[+-]\d+)?)\s*(fire|cold|acid|electricity|sonic)?", text)
    recharge = re.search(r"every (\d+d\d+(?:[+-]\d+)?|\d+) rounds", text)
    once = re.search(r"once per (hour|day|minute)|(\d)/day", text)
    if not shape or not dmg or "dc" not in numbers:
        return _item(shown, "breath weapon (non-damage)" if not dmg else "breath weapon", kind, "ignored", shown,
                     desc, "not a cone or line of hit-point damage the engine's breath weapon covers", numbers)
    damage_type = dmg.group(2)
    if damage_type is None:
        damage_type = "bludgeoning"
        notes.add("guess", "Special Attacks", cell, "breath weapon: untyped damage read as bludgeoning", text[:200])
    if recharge:
        rounds = recharge.group(1)
    elif once:
        rounds = "100"
        notes.add("changed", "Special Attacks", cell, "breath weapon usable once per fight: recharge 100 rounds",
                  text[:200])
    else:
        general = next((c.text for c in block.description if "breath weapon once every" in c.text.lower()), None) \
            or rule_above(block, r"breath weapon once every \d+d\d+ rounds")
        gm = re.search(r"once every (\d+d\d+) rounds", general) if general else None
        rounds = gm.group(1) if gm else "1d4"
        if not gm:
            notes.add("guess", "Special Attacks", cell, "breath weapon: no recharge given: 1d4 rounds", text[:200])
    save = numbers.get("save", "ref")
    fx.breath_weapon = {"shape": shape.group(2).lower(), "length_ft": number(shape.group(1)), "damage": dmg.group(1),
                        "damage_type": damage_type, "save": save, "dc": numbers["dc"], "recharge": rounds,
                        "half_on_save": "half" in text.lower()}
    numbers["damage"] = dmg.group(1)
    return _item(shown, "breath weapon", kind, "modelled", shown, desc, "breath_weapon", numbers)


def attack_riders(routines: list, block: RawBlock, notes: Notes) -> list[dict]:
    """Special abilities an attack's rider names (``bite (1d6 plus poison)``, ``touch (1d6 Str)``)."""
    out: dict[str, Item] = {}
    for routine in routines:
        for attack in routine:
            for rider in attack.riders:
                name = _norm(rider)
                if not name:
                    continue
                m = re.match(r"^(\d+d\d+(?:[+-]\d+)?|\d+)?\s*(str|dex|con|int|wis|cha|strength|dexterity|"
                             r"constitution|intelligence|wisdom|charisma)\w*\s*(drain|damage)?", rider.lower())
                if m and m.group(2):
                    key = "ability drain" if m.group(3) == "drain" else "ability damage"
                    item = Item(name=rider, key=key, kind="attack", engine="ignored", text=attack.text,
                                numbers={"damage": m.group(1)} if m.group(1) and "d" in m.group(1) else {})
                else:
                    key = _match(name, IGNORED) or _match(name, NO_EFFECT) or (name if name in KNOWN_IGNORED
                                                                                 else None)
                    if key is None:
                        key = _match(_norm(attack.name), IGNORED) or name
                    status = "no effect" if _match(name, NO_EFFECT) else "ignored"
                    if name in ("trip",):
                        key, status = "trip", "modelled"
                    item = Item(name=rider, key=key, kind="attack", engine=status, text=attack.text)
                out.setdefault(key, item)
    return [i.as_dict() for i in out.values()]

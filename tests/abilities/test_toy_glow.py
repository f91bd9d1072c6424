"""The recipe for a special ability holds: a toy ability written in one file (tests/abilities/toy_glow.py) is a
stat-block field (validated, with file/line/field errors, in the JSON Schema), is read by the SRD importer from its
paragraph, and acts in a fight at its moment, with no other file of the repository touched.

Registering an ability changes the stat-block model for the rest of a process, so each check runs in a child
Python that imports the toy first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def run_child(code: str) -> str:
    """Run ``code`` in a fresh Python with the toy ability imported; its stdout (the test fails on an error)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    done = subprocess.run(
        [sys.executable, "-c", "import toy_glow\n" + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


BLOCK = """\
name: ember-imp
cr: 1
type: outsider
hp: 9
hit_dice: 2d8
ac: 14
touch_ac: 12
flat_footed_ac: 12
bab: 2
grapple: 0
saves: {fort: 3, ref: 5, will: 3}
attack: [[{name: claw, bonuses: [3], damage: 1d4, damage_types: [slashing]}]]
searing_glow: {dc: 12}
"""


def test_the_toy_is_a_stat_block_field_with_errors_by_file_line_and_field(tmp_path):
    good = tmp_path / "imp.yaml"
    good.write_text(BLOCK, encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(BLOCK.replace("{dc: 12}", "{dc: twelve}"), encoding="utf-8")
    out = run_child(
        f"""
        from arena.errors import ArenaError
        from arena.world.bestiary import load_bestiary
        from arena.world.creatures import Creature
        imp = load_bestiary([{str(good)!r}])["ember-imp"]
        print("dc", imp.searing_glow.dc)
        print("schema", "searing_glow" in Creature.model_json_schema()["properties"])
        try:
            load_bestiary([{str(bad)!r}])
        except ArenaError as err:
            print("error", err)
        """
    )
    assert "dc 12" in out
    assert "schema True" in out
    error = out.split("error", 1)[1]
    assert "bad.yaml:13: searing_glow.dc: Input should be a valid integer" in error


def test_the_importer_reads_the_toy_from_its_paragraph():
    out = run_child(
        """
        from arena.srd.importer import import_text
        text = '''Ember Imp
        Small Outsider
        Hit Dice:\\t2d8 (9 hp)
        Initiative:\\t+2
        Speed:\\t20 ft. (4 squares)
        Armor Class:\\t14 (+1 size, +2 Dex, +1 natural), touch 13, flat-footed 12
        Base Attack/Grapple:\\t+2/-2
        Attack:\\tClaw +5 melee (1d3)
        Full Attack:\\tClaw +5 melee (1d3)
        Space/Reach:\\t5 ft./5 ft.
        Special Attacks:\\tSearing glow
        Special Qualities:\\tDarkvision 60 ft.
        Saves:\\tFort +3, Ref +5, Will +3
        Abilities:\\tStr 10, Dex 15, Con 10, Int 6, Wis 10, Cha 10
        Feats:\\tAlertness
        Challenge Rating:\\t1

        Searing Glow (Su): 1 point of fire damage to each foe each round, Reflex DC 12 negates.
        '''
        report = import_text(text.replace("\\n        ", "\\n"), "imp.md")
        (built,) = report.built
        print("glow", built.creature.searing_glow)
        print("engine", [a.engine for a in built.creature.special_abilities if a.key == "searing glow"])
        """
    )
    assert "glow dc=12" in out
    assert "engine ['modelled']" in out


def test_the_toy_acts_at_the_start_of_its_turn_in_a_fight(tmp_path):
    block = tmp_path / "imp.yaml"
    block.write_text(BLOCK, encoding="utf-8")
    out = run_child(
        f"""
        from arena.combat.engine import fight, prepare
        from arena.rules import RuleSet
        from arena.world.bestiary import load_bestiary
        from arena.world.party import generate_party
        imp = load_bestiary([{str(block)!r}])["ember-imp"]
        plain = imp.model_copy(update={{"searing_glow": None}})
        for creature in (imp, plain):
            result = fight(prepare(generate_party(1), [(creature, 2)]), RuleSet.from_key("d20"), 1, log=True)
            print(sum("seared by" in line for line in result.log))
        """
    )
    with_glow, without = map(int, out.split())
    assert with_glow > 0 and without == 0


def test_nothing_in_the_package_names_the_toy():
    """The recipe touches no other file: the package has no mention of the toy's field or its reader."""
    for path in (ROOT / "arena").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "searing_glow" not in text and "searing glow" not in text.lower(), path

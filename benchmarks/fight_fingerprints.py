"""Fingerprints of the whole bestiary's fights: for every built-in and imported SRD creature, seeded fights of two
of it against a party of about its CR under three rule sets, each fight's full log hashed. A restructuring that must
not change a result (moving a special ability into its own module) compares two runs' files; the golden files fight
only the reference scenario, and this covers every special ability the bestiary has.

    python benchmarks/fight_fingerprints.py --out /tmp/before.json
    ...change...
    python benchmarks/fight_fingerprints.py --out /tmp/after.json --compare /tmp/before.json

Prints the creatures whose fights changed (exit 1), or "identical" (exit 0). About half a minute of CPU.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from arena.combat.engine import fight, prepare
from arena.rules import RuleSet
from arena.world.bestiary import creature_names, get_creature
from arena.world.party import generate_party
from arena.world.srd_bestiary import srd_rows

RULES = ("d20", "3d6+prad+luck+open+called", "d20+var")
SEEDS = (1, 2, 3, 4)


def party_level(cr: float | None) -> int:
    return max(1, min(20, round(cr or 1)))


def fingerprints(rules: tuple[str, ...], seeds: tuple[int, ...], names: list[str]) -> dict[str, str]:
    parties: dict[tuple[int, str], list] = {}
    out: dict[str, str] = {}
    for name in names:
        creature = get_creature(name)
        level = party_level(float(creature.cr) if creature.cr is not None else None)
        digest = hashlib.sha256()
        for key in rules:
            rule_set = RuleSet.from_key(key)
            party = parties.setdefault((level, rule_set.die), generate_party(level, rule_set.die))
            encounter = prepare(party, [(creature, 2)])
            for seed in seeds:
                result = fight(encounter, rule_set, seed, log=True)
                digest.update("\n".join(result.log).encode())
        out[name] = digest.hexdigest()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--only", nargs="*", help="creature names (default: the whole bestiary)")
    args = parser.parse_args()
    names = args.only or [*creature_names(), *(f"srd/{row.name}" for row in srd_rows())]
    prints = fingerprints(RULES, SEEDS, names)
    args.out.write_text(json.dumps(prints, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.compare is None:
        print(f"{len(prints)} creatures fingerprinted")
        return 0
    before = json.loads(args.compare.read_text(encoding="utf-8"))
    changed = sorted(n for n in prints if before.get(n) != prints[n])
    if changed:
        print(f"{len(changed)} of {len(prints)} creatures fight differently: {', '.join(changed)}")
        return 1
    print(f"identical: {len(prints)} creatures")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A small valid stat block the bestiary tests write into files and then break on purpose."""

CAVE_BEAR = """\
name: cave-bear
type: animal
size: large
cr: 4
hp: 51
hit_dice: 6d8+24
ac: 15
touch_ac: 9
flat_footed_ac: 15
bab: 4
grapple: 16
saves: {fort: 9, ref: 5, will: 3}
attack:
  - - name: claw
      bonuses: [11]
      damage: 1d8+8
      damage_types: [slashing, piercing]
      threat: 20
"""

BOG_HAG = """\
name: bog-hag
type: monstrous humanoid
cr: 4
hp: 40
hit_dice: 6d8+12
ac: 18
touch_ac: 11
flat_footed_ac: 17
bab: 6
grapple: 10
saves: {fort: 4, ref: 6, will: 6}
attack:
  - - {name: claw, bonuses: [10], damage: 1d6+4, damage_types: [slashing], count: 2}
"""
"""A designer's own monster, not in any bestiary (issue 17: "is my hag really CR 4?")."""

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

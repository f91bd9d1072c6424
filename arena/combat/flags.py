"""The fight model's options as the plain attributes a fight reads on every swing: :class:`ModelFlags`.

Worked out once per encounter and model (:class:`~arena.combat.model.ModelOptions` is a pydantic model, read at the
edges), shared by every fight of that encounter as ``f.flags``. A native class under the compiled engine: each flag
is a typed field, read as fast as a local.
"""

from __future__ import annotations

from arena.combat.model import ModelOptions


class ModelFlags:
    """The model's options, one typed attribute each, worked out from :class:`ModelOptions` (this is the only list
    of them: a new option or fix that the fight reads gets its line here)."""

    def __init__(self, model: ModelOptions) -> None:
        self.model = model
        """The options these flags were worked out from (a fight reuses them while its encounter's model is this)."""
        self.flanking: str = model.flanking
        self.flank_bonus: bool = model.flanking == "same-target"
        self.helpless_dex_zero: bool = model.helpless_ac == "dex-zero"
        self.sleep_full_round: bool = model.sleep_casting == "full-round"
        self.prad_monster_fortitude: bool = model.prad_fortitude == "monster-rolls"
        self.back_line: bool = model.back_line == "protected"
        self.luck_low_natural: bool = model.luck_reroll == "low-natural"
        self.buff_by_value: bool = model.buff_choice == "by-value"
        self.area_roll_once: bool = model.area_damage == "roll-once"
        self.gaze_avert: bool = model.gaze_response == "avert"
        self.web_best: bool = model.web_escape == "best"
        self.fix_spell_focus: bool = model.fixed("spell-focus")
        self.fix_deflection: bool = model.fixed("deflection-stacking")
        self.fix_dodge: bool = model.fixed("dodge-one-opponent")
        self.fix_dodge_printed: bool = model.fixed("dodge-printed-ac")
        self.fix_healing_domain: bool = model.fixed("healing-domain")
        self.fix_melee_begins: bool = model.fixed("melee-begins")
        self.fix_touch_ff: bool = model.fixed("touch-flat-footed")
        self.fix_ff_aoo: bool = model.fixed("flat-footed-aoo")
        self.fix_color_spray: bool = model.fixed("color-spray-fumble")
        self.fix_trip_ties: bool = model.fixed("trip-ties")
        self.fix_blind_dex: bool = model.fixed("blind-dex")
        self.fix_sr_once: bool = model.fixed("sr-once")
        self.fix_caster_melee: bool = model.fixed("caster-melee")
        self.fix_disabled_win: bool = model.fixed("disabled-win")
        self.fix_called_pressed: bool = model.fixed("called-shot-pressed")
        self.fix_class_features: bool = model.fixed("class-features")
        self.fix_disabled_strain: bool = model.fixed("disabled-strain")
        self.fix_constrict_on_grab: bool = model.fixed("constrict-on-grab")
        self.fix_hold_full_attack: bool = model.fixed("hold-full-attack")
        self.fix_swallow_acid: bool = model.fixed("swallow-acid")
        self.fix_swallow_bite: bool = model.fixed("swallow-bite")
        self.fix_cut_free: bool = model.fixed("cut-free")
        self.fix_swallower_acts: bool = model.fixed("swallower-acts")
        self.fix_pounce_charge: bool = model.fixed("pounce-charge")
        self.constrict_first: bool = model.swallow_choice == "constrict-first"
        self.fix_coup: bool = model.fixed("coup-de-grace-rules")
        self.fix_rider_attacks: bool = model.fixed("rider-attacks")
        self.fix_strength_zero: bool = model.fixed("strength-zero")
        self.fix_finesse: bool = model.fixed("finesse-ability-damage")
        self.fix_trample_evasion: bool = model.fixed("trample-evasion")
        self.fix_roll_blows: bool = model.fixed("defensive-roll-blows")
        self.fix_charge_ac: bool = model.fixed("powerful-charge-ac")
        self.fix_constrict_bludgeoning: bool = model.fixed("constrict-bludgeoning")
        self.fix_hold_attack: bool = model.fixed("hold-grabbing-attack")
        self.fix_no_touch_inside: bool = model.fixed("no-touch-inside")
        self.fix_energy_spells: bool = model.fixed("energy-aware-spells")
        self.fix_sleep_budget: bool = model.fixed("sleep-budget")
        self.fix_immune_targets: bool = model.fixed("immune-targets")
        self.fix_web_ranged: bool = model.fixed("web-ranged")

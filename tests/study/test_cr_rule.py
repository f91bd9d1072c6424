"""The group-CR model comparison and the replacement CR rule on synthetic data with a known answer."""

from __future__ import annotations

import numpy as np
import pandas as pd

from arena.study.calibration import cr_rule


def _cells(truth, seed=1, se=0.1):
    rng = np.random.default_rng(seed)
    rows = []
    for level in (1, 3, 5, 8, 12, 16):
        for size in (1, 2, 3, 4, 6, 8):
            for gap in (-6, -4, -3, -2, 0, 2):
                if level + gap < 0:
                    continue
                d = truth(level, size, gap) + rng.normal(0, se)
                rows.append({"level": level, "size": size, "gap": gap, "cr_pos": level + gap, "delta": d, "se": se})
    return pd.DataFrame(rows)


def test_model_comparison_finds_a_gap_effect():
    frame = _cells(lambda lv, s, g: 0.1 + 0.15 * g)
    table = cr_rule.compare_models(frame)
    assert table.iloc[0]["model"] in ("cr-gap", "gap+smooth")
    doc = table.set_index("model").loc["document", "cv_rmse"]
    assert doc > 2 * table.iloc[0]["cv_rmse"]


def test_model_comparison_finds_the_documents_step():
    frame = _cells(lambda lv, s, g: -1.0 if s >= 4 else 0.0)
    table = cr_rule.compare_models(frame)
    assert table.iloc[0]["model"] in ("document", "step")


def test_replacement_rule_recovers_a_known_rule():
    truth = cr_rule.Rule("below", m=-1, n=4)
    frame = _cells(lambda lv, s, g: -1.0 if g <= -4 else 0.0)
    out = cr_rule.replacement_rule(frame)
    assert out["rule"] == truth
    assert out["within_half_rung"] > 0.95 and out["failures"].empty
    assert "4 or more CR below the party level counts 1 lower" in out["rule"].text("3d6")


def test_replacement_rule_prefers_no_change_when_there_is_none():
    out = cr_rule.replacement_rule(_cells(lambda lv, s, g: 0.0, se=0.2))
    assert out["rule"].form == "none"


def test_group_rule_and_its_failures():
    frame = _cells(lambda lv, s, g: -2.0 if s >= 6 else 0.0)
    frame.loc[0, "delta"] = 3.0  # one cell the rule cannot fit
    out = cr_rule.replacement_rule(frame)
    assert out["rule"] == cr_rule.Rule("group", m=-2, k=6)
    assert len(out["failures"]) == 1

# ruff: noqa: E501
# (the templates below hold markdown table rows and HTML lines that read best unbroken)
"""The pages of `arena report`: jinja2 templates for markdown and for one self-contained HTML file.

Every value reaches a template as data: names pass through :func:`arena.labels.printable` (control characters
escaped), then the HTML template autoescapes them and the markdown template escapes markdown punctuation
(:func:`arena.study.reports.text.md_text`), so a scenario called ``<img src=x onerror=...>`` is shown, never run. The
HTML page embeds its plots as ``data:`` URIs and lays itself out for a laptop screen (tables scroll sideways inside
their box rather than widening the page).

Why a module of its own: the templates are the page's layout, kept apart from the numbers
(:mod:`arena.study.reports.report`) so that escaping is decided in one place.
"""

from __future__ import annotations

from typing import Any

from arena.labels import printable

HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>d20 Arena report</title>
<style>
  :root { color-scheme: light; }
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45; color: #1d2330;
         max-width: 1100px; margin: 0 auto; padding: 0 1.2rem 3rem; }
  h1 { font-size: 1.6rem; margin-bottom: .2rem; }
  h2 { font-size: 1.3rem; margin-top: 2.4rem; border-bottom: 2px solid #d8dde6; padding-bottom: .2rem; }
  h3 { font-size: 1.05rem; margin-top: 1.6rem; }
  .run { color: #555; font-size: .9rem; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .6rem 0;
             background: #f4f6fa; padding: .6rem .9rem; border-radius: 6px; }
  dl.facts dt { font-weight: 600; }
  dl.facts dd { margin: 0; }
  .scroll { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; font-size: .85rem; margin: .4rem 0 1rem; }
  th, td { border-bottom: 1px solid #e1e5ec; padding: .25rem .55rem; text-align: right; white-space: nowrap; }
  th { background: #eef1f6; position: sticky; top: 0; }
  td.key, th.key { text-align: left; font-family: ui-monospace, Menlo, Consolas, monospace; }
  td.note { text-align: left; white-space: normal; color: #6a5200; min-width: 12rem; }
  tr.significant td.verdict { color: #a3261b; font-weight: 600; }
  tr.unchanged td { color: #8a8f99; }
  figure { margin: .8rem 0 1.4rem; }
  figure img { max-width: 100%; height: auto; display: block; }
  figcaption { font-size: .85rem; color: #555; }
  .notice { background: #fff6db; border-left: 4px solid #e0b100; padding: .4rem .8rem; }
</style>
</head>
<body>
<h1>d20 Arena report</h1>
<p class="run">Results: <code>{{ results | t }}</code>.
{%- if manifest %} Run started {{ manifest.started | t }}, finished {{ manifest.finished | t }};
{{ manifest.encounters_per_second | t }} encounters/s;{% endif %} commit <code>{{ commit }}</code>.
{%- if seeds %} Seeds: {{ seeds }} (encounter i has the same seed under every rule set).{% endif %}</p>
<p class="run">Changes are paired over the shared encounters (the same seeds under every rule set), with t intervals
drawn at the level that agrees with each Holm-corrected decision (alpha {{ alpha }}); win rates carry 95% Wilson
intervals; a lucky hit is a hit whose chance was 25% or less.</p>
{% for s in sections %}
<section>
<h2>{{ (s.name or "(unnamed scenario)") | t }}</h2>
<dl class="facts">
  {% if s.facts.description %}<dt>What</dt><dd>{{ s.facts.description }}</dd>{% endif %}
  {% if s.facts.party %}<dt>Party</dt><dd>{{ s.facts.party }}</dd>{% endif %}
  {% if s.facts.monsters %}<dt>Monsters</dt><dd>{{ s.facts.monsters }}</dd>{% endif %}
  {% if s.facts.el %}<dt>Encounter Level</dt><dd>{{ s.facts.el }}{% if s.facts.party_level %} against party level
    {{ s.facts.party_level }}{% endif %}</dd>{% endif %}
  {% if s.facts.n %}<dt>Encounters</dt><dd>{{ s.facts.n }} per rule set, seed {{ s.facts.seed }}</dd>{% endif %}
  <dt>Baseline</dt><dd><code>{{ s.baseline | t }}</code></dd>
</dl>
{% if s.unchanged %}
<p class="notice">{{ s.unchanged | length }} rule set(s) fought exactly the same fights as a simpler one, so they
change nothing for this scenario (for example <code>+luck</code> when nobody presses luck):
{% for key, twin in s.unchanged %}<code>{{ key | t }}</code> = <code>{{ twin | t }}</code>{{ ", " if not loop.last }}{% endfor %}.</p>
{% endif %}
{% if s.changes | length > 1 %}
<h3>What each rule set changes against {{ s.baseline | t }}</h3>
{% if s.images.changes %}<figure><img src="{{ s.images.changes.src }}" alt="{{ s.images.changes.alt }}">
<figcaption>Filled: significant after Holm's correction. Sorted by the change of the party's win rate.</figcaption>
</figure>{% endif %}
<div class="scroll"><table>
<tr>{% for key, head in change_columns.items() %}<th{% if key == "rules" %} class="key"{% endif %}>{{ head }}</th>{% endfor %}</tr>
{% for r in s.changes %}
<tr class="{{ 'significant' if r.verdict.startswith('significant') }}{{ ' unchanged' if r.note and r.note != 'baseline' }}">
{% for key in change_columns %}<td class="{{ 'key' if key == 'rules' else key }}">{{ r[key] | t }}</td>{% endfor %}
</tr>
{% endfor %}
</table></div>
{% endif %}
{% if s.images.grid %}
<h3>The variant grid</h3>
<figure><img src="{{ s.images.grid.src }}" alt="{{ s.images.grid.alt }}">
<figcaption>Rows: the die and players roll all; columns: modifiers, open-ended rolls and called shots. Each cell is
the change of the party's win rate against {{ s.baseline | t }}, in points.</figcaption></figure>
{% endif %}
<h3>Details</h3>
<div class="scroll"><table>
<tr>{% for key, head in columns.items() %}<th{% if key == "rules" %} class="key"{% endif %}>{{ head }}</th>{% endfor %}</tr>
{% for r in s.rows %}
<tr{% if r.note and r.note != "baseline" %} class="unchanged"{% endif %}>
{% for key in columns %}<td class="{{ 'key' if key == 'rules' else key }}">{{ r[key] | t }}</td>{% endfor %}
</tr>
{% endfor %}
</table></div>
{% for key in ("win", "rounds", "hp") %}
<figure><img src="{{ s.images[key].src }}" alt="{{ s.images[key].alt }}"></figure>
{% endfor %}
{{ s.combatants | safe }}
</section>
{% endfor %}
</body>
</html>
"""

MARKDOWN = """# d20 Arena report

- Results: {{ results | code(1000) }}
{% if manifest -%}
- Run started {{ manifest.started | md(80) }}, finished {{ manifest.finished | md(80) }}; {{ manifest.encounters_per_second | md(40) }} encounters/s; commit {{ commit | md(100) }}.
{% else -%}
- Commit {{ commit | md(100) }}.
{% endif -%}
{% if seeds %}- Seeds: {{ seeds | md(4000) }} (encounter i has the same seed under every rule set).
{% endif -%}
- Changes are paired over the shared encounters, with t intervals at the level that agrees with each Holm-corrected decision (alpha {{ alpha }}); win rates carry 95% Wilson intervals; a lucky hit is a hit whose chance was 25% or less.
{% for s in sections %}

## {{ s.name | md if s.name else "(unnamed scenario)" }}

{% if s.facts.description %}- **What**: {{ s.facts.description | md(1000) }}
{% endif -%}
{% if s.facts.party %}- **Party**: {{ s.facts.party | md(1000) }}
{% endif -%}
{% if s.facts.monsters %}- **Monsters**: {{ s.facts.monsters | md(1000) }}
{% endif -%}
{% if s.facts.el %}- **Encounter Level**: {{ s.facts.el | md }}{% if s.facts.party_level %} against party level {{ s.facts.party_level | md }}{% endif %}
{% endif -%}
{% if s.facts.n %}- **Encounters**: {{ s.facts.n | md }} per rule set, seed {{ s.facts.seed | md }}
{% endif -%}
- **Baseline**: {{ s.baseline | code }}
{% if s.unchanged %}
> {{ s.unchanged | length }} rule set(s) fought exactly the same fights as a simpler one, so they change nothing for this scenario: {% for key, twin in s.unchanged %}{{ key | code }} = {{ twin | code }}{{ ", " if not loop.last }}{% endfor %}.
{% endif %}
{%- if s.changes | length > 1 %}

### What each rule set changes against {{ s.baseline | md }}

{% if s.images.changes %}![{{ s.images.changes.alt }}]({{ s.images.changes.src }})

{% endif -%}
| {{ change_columns.values() | join(" | ") }} |
|{% for key in change_columns %}{{ "---" if key in ("rules", "verdict", "note") else "---:" }}|{% endfor %}
{% for r in s.changes -%}
| {% for key in change_columns %}{{ r[key] | code if key == "rules" else r[key] | md(400) }}{{ " | " if not loop.last }}{% endfor %} |
{% endfor %}
{%- endif %}
{%- if s.images.grid %}

### The variant grid

![{{ s.images.grid.alt }}]({{ s.images.grid.src }})
{% endif %}

### Details

| {{ columns.values() | join(" | ") }} |
|{% for key in columns %}{{ "---" if key in ("rules", "note") else "---:" }}|{% endfor %}
{% for r in s.rows -%}
| {% for key in columns %}{{ r[key] | code if key == "rules" else r[key] | md(400) }}{{ " | " if not loop.last }}{% endfor %} |
{% endfor %}
![{{ s.images.win.alt }}]({{ s.images.win.src }})

![{{ s.images.rounds.alt }}]({{ s.images.rounds.src }})

![{{ s.images.hp.alt }}]({{ s.images.hp.src }}){{ s.combatants }}
{%- endfor %}
"""


def _environment(fmt: str, md_text: Any, md_code: Any) -> Any:
    import jinja2

    env = jinja2.Environment(
        autoescape=fmt == "html",
        undefined=jinja2.ChainableUndefined,
        keep_trailing_newline=True,
        trim_blocks=fmt == "html",
        lstrip_blocks=fmt == "html",
    )
    env.filters["t"] = lambda value, limit=1000: printable(value, limit=limit)
    env.filters["md"] = lambda value, limit=200: md_text(value, limit)
    env.filters["code"] = lambda value, limit=200: md_code(value, limit)
    return env


def render(fmt: str, context: dict, md_text: Any, md_code: Any) -> str:
    """The page for ``fmt`` (``md`` or ``html``) from the report's context (:func:`arena.study.reports.report.build_report`);
    ``md_text`` and ``md_code`` escape a value as markdown text and as a code span."""
    text = _environment(fmt, md_text, md_code).from_string(HTML if fmt == "html" else MARKDOWN).render(**context)
    return text if text.endswith("\n") else text + "\n"

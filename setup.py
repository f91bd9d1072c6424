"""Builds d20 Arena's fight engine with mypyc where it can, and installs the pure-Python engine where it cannot.

Everything else about the package is in pyproject.toml. This file adds one thing: the engine's modules (the
``ENGINE`` list: what a fight spends its time in, by the profile) compiled by mypyc into C extensions, their
Python source installed beside them. The source is the reference engine; ``ARENA_ENGINE=python`` loads it even
where the compiled modules are installed (``arena/engine_build.py``), and ``arena --version`` says which is loaded.

The engine is not compiled (and the install goes on, pure Python) when:

- ``ARENA_PURE_PYTHON=1`` is set;
- the install is editable (``pip install -e .``: a compiled module would not follow edits to its source), unless
  ``ARENA_COMPILE=1`` is set;
- there is no C compiler or no Python headers, or mypyc or the compiler fails on any module (then none is
  installed compiled: the engine is all of one kind).

``ARENA_OPT_LEVEL`` (default 2) and ``ARENA_DEBUG_LEVEL`` (default 0) set mypyc's C optimisation and debug
information; ``-O2`` without debug information races as fast as ``-O3 -g1`` and compiles faster.

Why mypyc (not Cython): the engine stays plain, typed Python that mypy already checks, with one source for both
builds; Cython's pure-Python mode would need a ``.pxd`` file beside each module to declare the same types again.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ENGINE = [
    "arena/dice.py",
    "arena/rules/bell_curve.py",
    "arena/rules/called_shots.py",
    "arena/rules/check.py",
    "arena/rules/compiler.py",
    "arena/rules/kernel.py",
    "arena/rules/naturals.py",
    "arena/rules/open_ended.py",
    "arena/rules/plan.py",
    "arena/rules/players_roll.py",
    "arena/rules/standard.py",
    "arena/rules/variable_modifiers.py",
    "arena/world/spellbook.py",
    "arena/combat/abilities.py",
    "arena/combat/ability_hooks.py",
    "arena/combat/actions.py",
    "arena/combat/attacks.py",
    "arena/combat/called_shots.py",
    "arena/combat/casting.py",
    "arena/combat/clock.py",
    "arena/combat/combatant.py",
    "arena/combat/concealment.py",
    "arena/combat/conditions.py",
    "arena/combat/damage.py",
    "arena/combat/engine.py",
    "arena/combat/fight_state.py",
    "arena/combat/flags.py",
    "arena/combat/injuries.py",
    "arena/combat/monster_controls.py",
    "arena/combat/monster_dispel.py",
    "arena/combat/monster_spells.py",
    "arena/combat/record.py",
    "arena/combat/rolls.py",
    "arena/combat/specials.py",
    "arena/combat/spell_targets.py",
    "arena/combat/spells.py",
    "arena/combat/states.py",
    "arena/combat/template.py",
    "arena/combat/tactics/attack.py",
    "arena/combat/tactics/caster.py",
    "arena/combat/tactics/monster_caster.py",
    "arena/combat/tactics/policies.py",
    "arena/combat/tactics/policy_guard.py",
    "arena/combat/tactics/spell_aim.py",
    "arena/combat/tactics/view.py",
]
"""The modules compiled: the rules kernel and dice, the fight's parts and its tactics. Not compiled: the packages'
``__init__`` files, the pydantic models (``rules/ruleset.py``, ``combat/model.py``), the policy files' loader (it
runs a user's code), the special abilities (``arena/abilities``: a fight calls them through hooks) and everything
above the fight."""


def _wanted() -> str | None:
    """Why the engine is not compiled here, or None when it is to be."""
    if os.environ.get("ARENA_PURE_PYTHON", "") not in ("", "0"):
        return "ARENA_PURE_PYTHON is set"
    editable = any(arg in ("editable_wheel", "develop") for arg in sys.argv)
    if editable and os.environ.get("ARENA_COMPILE", "") in ("", "0"):
        return "an editable install follows its source (set ARENA_COMPILE=1 to compile it anyway)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(os.environ.get("CC", compiler).split()[0]) is None:
        return f"no C compiler ({compiler}) on the PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def _say(text: str) -> None:
    print(f"d20 Arena: {text}", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """Compiles the engine's C files in parallel; if any of them fails, installs none (the pure-Python engine)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext: Any) -> None:
        """Builds one extension with its C files compiled at once: the engine is one extension (one shared library,
        for direct calls between its modules), and setuptools' own ``parallel`` runs only extensions at once, so the
        whole compile (10 MB of C, two CPU minutes) ran on one core."""
        compiler = self.compiler
        serial = compiler.compile
        jobs = int(self.parallel or 1)

        def compile_at_once(
            sources: list,
            output_dir: Any = None,
            macros: Any = None,
            include_dirs: Any = None,
            debug: Any = 0,
            extra_preargs: Any = None,
            extra_postargs: Any = None,
            depends: Any = None,
        ) -> list:
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs
            )
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

            def one(obj: str) -> None:
                if obj in build:  # absent: up to date
                    src, src_ext = build[obj]
                    compiler._compile(obj, src, src_ext, cc_args, extra_postargs, pp_opts)

            with ThreadPoolExecutor(max_workers=jobs) as pool:
                list(pool.map(one, objects))  # list(): the first compiler error is raised here
            return objects

        compiler.compile = compile_at_once
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # a compiler error, a missing header, a linker error: install the source alone
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            _say(f"the fight engine could not be compiled ({type(err).__name__}: {err}); installing it as pure Python")


BUILDS = {"bdist_wheel", "build", "build_ext", "install", "editable_wheel", "develop"}
"""The setup.py commands that build modules: pip also runs setup.py for the requirements and the metadata before it
builds the wheel, and mypyc (half a minute of type checking) runs only for the build itself."""


def _extensions() -> list:
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    reason = _wanted()
    if reason is not None:
        _say(f"installing the pure-Python fight engine: {reason}")
        return []
    try:
        from mypyc.build import mypycify

        _say(f"compiling the fight engine with mypyc ({len(ENGINE)} modules; about a minute and a half on two cores)")
        # pip builds in an environment of its own, without the run-time dependencies: their names are Any to mypyc
        # (the engine's own types, which its speed comes from, are all here).
        options = ["--ignore-missing-imports"]
        # One shared library for the whole engine (calls between its modules are direct C calls: 7-10% faster
        # fights than a library per module), its C split into a file per module so that they compile in parallel.
        extensions = mypycify(
            options + ENGINE,
            # -O2 without debug information: as fast as -O3 -g1 in a side-by-side race (1.06x, 1.02x, 0.97x on the
            # three fights of benchmarks/race_engines.py; -O1 the same again) and 12 s less of a two-core install.
            opt_level=os.environ.get("ARENA_OPT_LEVEL", "2"),
            debug_level=os.environ.get("ARENA_DEBUG_LEVEL", "0"),
            multi_file=True,
            separate=[(ENGINE, "d20_arena_engine")],
        )
    except (Exception, SystemExit) as err:  # mypyc missing, or its type check failed: install the source alone
        _say(f"the fight engine could not be compiled by mypyc ({err}); installing it as pure Python")
        return []
    for extension in extensions:
        extension.optional = False  # all or none: OptionalBuildExt removes every output when one fails
    return extensions


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})

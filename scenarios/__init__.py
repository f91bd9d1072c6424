"""The example scenario files, shipped inside the package as ``arena.scenarios_data``.

``arena scenario list`` lists them and ``arena scenario copy NAME`` copies one out
(:mod:`arena.study.scenarios.examples`); this module only makes the folder an importable package so that
``importlib.resources.files("arena.scenarios_data")`` finds it in every kind of install.
"""

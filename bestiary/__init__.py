"""The built-in stat blocks, shipped inside the package as ``arena.bestiary_data`` (one YAML file per creature).

Load them with :func:`arena.world.bestiary.load_bestiary`; this module only makes the folder an importable package
so that ``importlib.resources.files("arena.bestiary_data")`` finds it in every kind of install.
"""

"""``python -m arena.srd SRC OUT``: the shipped SRD bestiary rebuilt from the SRD 3.5 monster chapters
(:func:`arena.srd.importer.main`)."""

from arena.srd.importer import main

raise SystemExit(main())

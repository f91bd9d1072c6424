"""Scripted dice for engine tests: feed a fight the exact draws a test wants."""

from arena.dice import Stream
from arena.engine import Fight


class Script:
    """Feed a fight scripted draws ((face, sides) or raw floats) and tell whether all were used."""

    def __init__(self, fight: Fight, draws: list):
        self.left = [d if isinstance(d, float) else (d[0] - 0.5) / d[1] for d in draws]

        def rand() -> float:
            if not self.left:
                raise AssertionError("the engine drew more dice than scripted")
            return self.left.pop(0)

        stream = Stream.scripted([])
        stream.rand = rand
        fight.stream = stream
        fight.rand = rand

    @property
    def used_up(self) -> bool:
        return not self.left

from .lays import Lays, Parts

def gather(rows: tuple[tuple[Lays, ...], ...], species: tuple[int, ...],
           plan: tuple[tuple[int, int], ...], parts: Parts, tail: Lays, /) -> Lays: ...

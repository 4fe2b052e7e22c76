from .lays import Lays, Plan

def gather(rows: tuple[tuple[Lays, ...], ...], species: tuple[int, ...], plan: Plan,
           mask: bytes, tail: Lays, /) -> Lays: ...

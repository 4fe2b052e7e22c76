from .lays import Lays, Plan

def gather(rows: tuple[tuple[Lays, ...], ...], species: tuple[int, ...], key: bytes,
           plans: tuple[Plan, ...], low: tuple[bytes, ...], high: tuple[bytes, ...],
           tail: Lays, /) -> Lays: ...

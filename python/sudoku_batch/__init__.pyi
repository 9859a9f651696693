from os import PathLike
from typing import Any, Sequence, Union

import numpy as np
import numpy.typing as npt

Puzzles = Union[Sequence[str], Sequence[bytes], npt.NDArray[Any], Any]

def solve(puzzles: Puzzles, threads: int | None = ..., as_arrow: bool = ...) -> dict[str, np.ndarray]: ...
def classify(puzzles: Puzzles, threads: int | None = ..., as_arrow: bool = ...) -> dict[str, np.ndarray]: ...
def classify_file(path: Union[str, PathLike[str]], threads: int | None = ..., output: str | None = ...) -> dict[str, Any]: ...

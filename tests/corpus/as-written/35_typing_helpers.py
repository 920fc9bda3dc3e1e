from typing import Dict, List, Optional, Tuple

import numpy as np
import matplotlib.pyplot as plt


def moving_average(values: List[float], window: int = 5) -> np.ndarray:
    kernel = np.ones(window) / window
    return np.convolve(values, kernel, mode="valid")


def limits(values: np.ndarray, pad: Optional[float] = None) -> Tuple[float, float]:
    pad = 0.1 if pad is None else pad
    span = values.max() - values.min()
    return values.min() - pad * span, values.max() + pad * span


signal: np.ndarray = np.load("signal.npy")
smoothed = moving_average(list(signal), 15)
styles: Dict[str, str] = {"raw": "lightgray", "smooth": "black"}
plt.plot(signal, color=styles["raw"], label="raw")
plt.plot(np.arange(7, 7 + smoothed.size), smoothed, color=styles["smooth"], label="moving average")
plt.ylim(*limits(signal))
plt.legend()
plt.xlabel("sample")
plt.ylabel("value")
plt.show()

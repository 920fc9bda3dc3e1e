import numpy as np
import pandas as pd
import matplotlib.pyplot as plt


def load_data(path: str) -> pd.DataFrame:
    """Load the CSV file and sort it."""
    df = pd.read_csv(path)
    return df.sort_values("x")


def plot(df: pd.DataFrame) -> None:
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(df["x"], df["y"], label="data")
    smooth = df["y"].rolling(5, center=True).mean()
    ax.plot(df["x"], smooth, label="smoothed", linewidth=2)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.legend()
    fig.tight_layout()
    plt.show()


def main():
    df = load_data("data.csv")
    plot(df)


if __name__ == "__main__":
    main()

"""The examples' seed program with its tensors on the GPU (run from examples/): Inductor
then writes Triton kernels, and the baked constants may become kernel immediates."""

import os
import sys

import torch

sys.path.insert(0, os.getcwd())
torch.set_default_device(os.environ.get("GPU_CHECK_DEVICE", "cuda"))

import seed  # noqa: E402  (after the default device is set)

if __name__ == "__main__":
    seed.main()

import torch

from model import FLAGS, MLPBlock


def main():
    torch.manual_seed(0)
    block = torch.compile(MLPBlock())
    x = torch.randn(4, 32)
    print("baseline", block(x).norm().item())
    FLAGS.use_gelu = True  # ablation: switch the activation
    print("gelu", block(x).norm().item())
    for scale in (0.5, 0.25):
        FLAGS.residual_scale = scale
        print("scale", scale, block(x).norm().item())


if __name__ == "__main__":
    main()

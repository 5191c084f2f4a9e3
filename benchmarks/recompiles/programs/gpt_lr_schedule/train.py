import torch
import torch.nn.functional as F

from model import TinyLM


@torch.compile
def train_step(model, tokens, targets, lr):
    logits = model(tokens)
    loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
    loss.backward()
    print(f"loss {loss.item():.4f}")
    with torch.no_grad():
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)
            p.grad = None
    return loss


def main():
    torch.manual_seed(0)
    model = TinyLM()
    for step in range(5):
        lr = 1e-2 * 0.5 ** step
        data = torch.randint(0, 64, (4, 9))
        train_step(model, data[:, :-1], data[:, 1:], lr)


if __name__ == "__main__":
    main()

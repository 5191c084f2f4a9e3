"""Top-k sampling with a per-request k."""

import torch


@torch.compile
def top_k_sample(logits, top_k, temperature):
    values, indices = torch.topk(logits / temperature, top_k, dim=-1)
    probs = torch.softmax(values, dim=-1)
    choice = torch.multinomial(probs, 1)
    return indices.gather(-1, choice)


def main():
    torch.manual_seed(0)
    requests = [(50, 0.7), (40, 0.7), (10, 0.7), (50, 0.7), (5, 0.7)]
    for top_k, temperature in requests:
        token = top_k_sample(torch.randn(2, 100), top_k, temperature)
        print(top_k, token.flatten().tolist())


if __name__ == "__main__":
    main()

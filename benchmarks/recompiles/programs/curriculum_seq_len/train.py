import torch
import torch.nn.functional as F

from model import ConvTagger

CURRICULUM = [8, 16, 32, 64, 64]


def main():
    torch.manual_seed(0)
    model = torch.compile(ConvTagger())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for stage, seq_len in enumerate(CURRICULUM):
        tokens = torch.randint(0, 100, (4, 64))
        tags = torch.randint(0, 5, (4, seq_len))
        loss = F.cross_entropy(model(tokens, seq_len).flatten(0, 1), tags.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(stage, seq_len, round(loss.item(), 3))


if __name__ == "__main__":
    main()

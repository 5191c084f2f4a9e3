"""Knowledge distillation loss with an annealed softmax temperature."""

import torch
import torch.nn.functional as F


@torch.compile
def distill_loss(student_logits, teacher_logits, temperature):
    s = F.log_softmax(student_logits / temperature, dim=-1)
    t = F.softmax(teacher_logits / temperature, dim=-1)
    return F.kl_div(s, t, reduction="batchmean") * temperature ** 2


def main():
    torch.manual_seed(0)
    temperature = 4.0
    for epoch in range(5):
        loss = distill_loss(torch.randn(32, 10), torch.randn(32, 10), temperature)
        temperature = max(1.0, temperature * 0.7)
        print(f"epoch {epoch} T={temperature:.2f} loss={loss.item():.4f}")


if __name__ == "__main__":
    main()

import torch
import torch.nn.functional as F


@torch.compile
def kd_loss(
    student_logits: torch.Tensor,
    teacher_logits: torch.Tensor,
    targets: torch.Tensor,
    temperature: float = 4.0,
    alpha: float = 0.9,
    label_smoothing: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Hinton-style distillation: soft KL term scaled by T^2 plus hard CE."""
    soft_student = F.log_softmax(student_logits / temperature, dim=-1)
    soft_teacher = F.softmax(teacher_logits / temperature, dim=-1)
    soft = F.kl_div(soft_student, soft_teacher, reduction="batchmean") * temperature**2
    hard = F.cross_entropy(student_logits, targets, label_smoothing=label_smoothing)
    loss = alpha * soft + (1.0 - alpha) * hard
    return loss, soft.detach(), hard.detach()


def accuracy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return (logits.argmax(dim=-1) == targets).float().mean()

from .config import MTLConfig, TaskSpec
from .model import MultiTaskNet
from .losses import UncertaintyWeighting, task_loss

__all__ = ["MTLConfig", "TaskSpec", "MultiTaskNet", "UncertaintyWeighting", "task_loss"]

from dataclasses import dataclass, asdict


@dataclass
class NeRFConfig:
    # encoding
    num_freqs: int = 6
    num_dir_freqs: int = 2
    include_input: bool = True
    use_viewdirs: bool = True
    # network
    depth: int = 4
    hidden: int = 48
    skip_at: int = 2
    # sampling / rendering
    n_samples: int = 12
    n_importance: int = 8
    near: float = 2.0
    far: float = 6.0
    lindisp: bool = False
    white_bkgd: bool = True
    raw_noise_std: float = 0.5
    # training
    n_rays: int = 96
    steps: int = 80
    lrate: float = 5e-3
    lrate_decay_steps: int = 120
    chunk: int = 96
    # camera
    H: int = 16
    W: int = 16
    focal: float = 20.0
    n_train_views: int = 6

    @classmethod
    def coarse_only(cls, **kw):
        return cls(n_importance=0, **kw)

    @classmethod
    def debug(cls):
        return cls(steps=5, H=8, W=8, n_train_views=2)

    def to_dict(self):
        return asdict(self)

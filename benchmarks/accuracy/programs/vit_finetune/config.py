"""Configuration for the small Vision Transformer."""


class ViTConfig:
    def __init__(
        self,
        img_size=224,
        patch_size=16,
        in_chans=3,
        num_classes=1000,
        embed_dim=768,
        depth=12,
        num_heads=12,
        mlp_ratio=4.0,
        qkv_bias=True,
        drop_rate=0.0,
        attn_drop_rate=0.0,
        drop_path_rate=0.1,
        fused_attn=True,
        global_pool="token",
    ):
        self.img_size = img_size
        self.patch_size = patch_size
        self.in_chans = in_chans
        self.num_classes = num_classes
        self.embed_dim = embed_dim
        self.depth = depth
        self.num_heads = num_heads
        self.mlp_ratio = mlp_ratio
        self.qkv_bias = qkv_bias
        self.drop_rate = drop_rate
        self.attn_drop_rate = attn_drop_rate
        self.drop_path_rate = drop_path_rate
        self.fused_attn = fused_attn
        self.global_pool = global_pool

    @classmethod
    def tiny(cls, **overrides):
        kwargs = dict(
            img_size=32,
            patch_size=8,
            num_classes=10,
            embed_dim=48,
            depth=4,
            num_heads=3,
            mlp_ratio=2.0,
            drop_path_rate=0.1,
        )
        kwargs.update(overrides)
        return cls(**kwargs)

    @property
    def head_dim(self):
        return self.embed_dim // self.num_heads

    @property
    def num_patches(self):
        return (self.img_size // self.patch_size) ** 2

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"ViTConfig({fields})"

import torch
import torch.nn as nn

from modules import ConformerBlock


def chunk_attention_mask(num_frames, chunk_size, left_context, device):
    # each frame sees its own chunk plus `left_context` frames before the chunk
    if chunk_size <= 0:
        return None
    idx = torch.arange(num_frames, device=device)
    chunk_start = (idx // chunk_size) * chunk_size
    chunk_end = chunk_start + chunk_size
    visible = idx[None, :] < chunk_end[:, None]
    visible &= idx[None, :] >= (chunk_start - left_context)[:, None]
    return visible


class ConformerCTC(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.input_proj = nn.Sequential(nn.Linear(cfg.n_mels, cfg.d_model), nn.LayerNorm(cfg.d_model),
                                        nn.Dropout(cfg.dropout))
        self.blocks = nn.ModuleList([ConformerBlock(cfg) for _ in range(cfg.n_layers)])
        self.heads = nn.ModuleDict({
            "final": nn.Linear(cfg.d_model, cfg.vocab_size),
            "inter": nn.Linear(cfg.d_model, cfg.vocab_size),
        })
        self.inter_layer = max(1, cfg.n_layers // 2)

    @property
    def num_params(self):
        return sum(p.numel() for p in self.parameters())

    def forward(self, feats, chunk_size: int = 0, return_intermediate: bool = False):
        x = self.input_proj(feats)
        mask = chunk_attention_mask(x.size(1), chunk_size, self.cfg.left_context, x.device)
        inter = None
        for i, block in enumerate(self.blocks):
            x, _, _ = block(x, mask)
            if return_intermediate and i + 1 == self.inter_layer:
                inter = self.heads["inter"](x).log_softmax(dim=-1)
        logits = self.heads["final"](x).log_softmax(dim=-1)
        if return_intermediate:
            return logits, inter
        return logits

    def forward_chunk(self, chunk, att_caches, conv_caches):
        x = self.input_proj(chunk)
        keep = self.cfg.left_context
        new_att, new_conv = [], []
        for block, att_cache, conv_cache in zip(self.blocks, att_caches, conv_caches):
            x, (k, v), conv_state = block(x, None, att_cache, conv_cache)
            new_att.append((k[:, -keep:], v[:, -keep:]))
            new_conv.append(conv_state)
        return self.heads["final"](x).log_softmax(dim=-1), new_att, new_conv

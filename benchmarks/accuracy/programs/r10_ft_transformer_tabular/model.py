import torch
import torch.nn as nn
import torch.nn.functional as F

from feature_tokenizers import CategoricalFeatureTokenizer, CLSToken, NumericalFeatureTokenizer


class ReGLU(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        return a * F.relu(b)


ACTIVATIONS = {"reglu": ReGLU, "gelu": nn.GELU, "relu": nn.ReLU}


class FTBlock(nn.Module):
    def __init__(self, cfg, is_first):
        super().__init__()
        d = cfg.d_token
        glu = cfg.activation.endswith("glu")
        self.prenorm = cfg.prenorm
        # the first pre-norm block skips the attention LayerNorm (Gorishniy et al.)
        self.attn_norm = nn.Identity() if (is_first and cfg.prenorm) else nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, cfg.n_heads, dropout=cfg.attn_dropout, batch_first=True)
        self.ffn_norm = nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, cfg.d_ffn * (2 if glu else 1)), ACTIVATIONS[cfg.activation](),
                                 nn.Dropout(cfg.ffn_dropout), nn.Linear(cfg.d_ffn, d))
        self.residual_dropout = nn.Dropout(cfg.residual_dropout)

    def _residual(self, x, fn, norm, query_last_only):
        h = norm(x) if self.prenorm else x
        if fn is self.attn:
            q = h[:, -1:] if query_last_only else h
            out, _ = self.attn(q, h, h, need_weights=False)
            x = x[:, -1:] if query_last_only else x
        else:
            out = fn(h)
        x = x + self.residual_dropout(out)
        return x if self.prenorm else norm(x)

    def forward(self, x, query_last_only=False):
        x = self._residual(x, self.attn, self.attn_norm, query_last_only)
        return self._residual(x, self.ffn, self.ffn_norm, False)


class FTTransformer(nn.Module):
    def __init__(self, cfg, n_outputs=1):
        super().__init__()
        self.cfg = cfg
        self.num_tokenizer = NumericalFeatureTokenizer(cfg.n_num_features, cfg.d_token)
        self.cat_tokenizer = CategoricalFeatureTokenizer(cfg.cat_cardinalities, cfg.d_token)
        self.cls_token = CLSToken(cfg.d_token)
        self.blocks = nn.ModuleList([FTBlock(cfg, i == 0) for i in range(cfg.n_blocks)])
        self.head = nn.Sequential(nn.LayerNorm(cfg.d_token), nn.ReLU(), nn.Linear(cfg.d_token, n_outputs))

    @property
    def n_tokens(self):
        return self.cfg.n_num_features + len(self.cfg.cat_cardinalities) + 1

    def forward(self, x_num, x_cat):
        tokens = torch.cat([self.num_tokenizer(x_num), self.cat_tokenizer(x_cat)], dim=1)
        x = self.cls_token(tokens)
        for i, block in enumerate(self.blocks):
            # only the CLS token is needed after the last block
            x = block(x, query_last_only=(i == len(self.blocks) - 1))
        return self.head(x[:, -1]).squeeze(-1)

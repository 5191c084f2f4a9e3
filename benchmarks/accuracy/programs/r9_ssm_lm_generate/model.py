import torch
import torch.nn as nn
import torch.nn.functional as F

ACTIVATIONS = {}


def register_activation(name):
    def deco(fn):
        ACTIVATIONS[name] = fn
        return fn
    return deco


@register_activation("silu")
def _silu(x):
    return F.silu(x)


@register_activation("gelu")
def _gelu(x):
    return F.gelu(x, approximate="tanh")


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(var + self.eps) * self.weight


def selective_scan(u, delta, A, B, C, D):
    """Sequential selective scan.
    u, delta: (b, l, d)   A: (d, n)   B, C: (b, l, n)   D: (d,)
    """
    b, l, d = u.shape
    deltaA = torch.exp(delta.unsqueeze(-1) * A)
    deltaBu = delta.unsqueeze(-1) * B.unsqueeze(2) * u.unsqueeze(-1)
    h = u.new_zeros(b, d, A.shape[1])
    ys = []
    for t in range(l):
        h = deltaA[:, t] * h + deltaBu[:, t]
        ys.append((h * C[:, t].unsqueeze(1)).sum(-1))
    y = torch.stack(ys, dim=1)
    return y + u * D


class MambaMixer(nn.Module):
    def __init__(self, cfg, layer_idx):
        super().__init__()
        d_in = cfg.d_inner
        self.layer_idx = layer_idx
        self.dt_rank = cfg.dt_rank
        self.d_state = cfg.d_state
        self.d_conv = cfg.d_conv
        self.in_proj = nn.Linear(cfg.d_model, 2 * d_in, bias=False)
        self.conv = nn.Conv1d(d_in, d_in, cfg.d_conv, groups=d_in, padding=cfg.d_conv - 1)
        self.x_proj = nn.Linear(d_in, cfg.dt_rank + 2 * cfg.d_state, bias=False)
        self.dt_proj = nn.Linear(cfg.dt_rank, d_in)
        A = torch.arange(1, cfg.d_state + 1, dtype=torch.float32).repeat(d_in, 1)
        self.A_log = nn.Parameter(torch.log(A))
        self.D = nn.Parameter(torch.ones(d_in))
        self.out_proj = nn.Linear(d_in, cfg.d_model, bias=False)
        self.act = ACTIVATIONS[cfg.act]

    def _ssm_params(self, x):
        dt, B, C = self.x_proj(x).split([self.dt_rank, self.d_state, self.d_state], dim=-1)
        delta = F.softplus(self.dt_proj(dt))
        return delta, B, C

    def forward(self, x):
        seqlen = x.shape[1]
        x, z = self.in_proj(x).chunk(2, dim=-1)
        x = self.conv(x.transpose(1, 2))[..., :seqlen].transpose(1, 2)
        x = self.act(x)
        delta, B, C = self._ssm_params(x)
        A = -torch.exp(self.A_log)
        y = selective_scan(x, delta, A, B, C, self.D)
        return self.out_proj(y * self.act(z))

    def step(self, x, conv_state, ssm_state):
        # x: (b, d_model); conv_state: (b, d_in, d_conv); ssm_state: (b, d_in, n)
        x, z = self.in_proj(x).chunk(2, dim=-1)
        conv_state = torch.cat([conv_state[:, :, 1:], x.unsqueeze(-1)], dim=-1)
        x = (conv_state * self.conv.weight.squeeze(1)).sum(-1) + self.conv.bias
        x = self.act(x)
        delta, B, C = self._ssm_params(x)
        A = -torch.exp(self.A_log)
        dA = torch.exp(delta.unsqueeze(-1) * A)
        ssm_state = dA * ssm_state + delta.unsqueeze(-1) * B.unsqueeze(1) * x.unsqueeze(-1)
        y = (ssm_state * C.unsqueeze(1)).sum(-1) + self.D * x
        return self.out_proj(y * self.act(z)), conv_state, ssm_state


class ResidualBlock(nn.Module):
    def __init__(self, cfg, layer_idx):
        super().__init__()
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mixer = MambaMixer(cfg, layer_idx)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        return x + self.drop(self.mixer(self.norm(x)))

    def step(self, x, conv_state, ssm_state):
        out, conv_state, ssm_state = self.mixer.step(self.norm(x), conv_state, ssm_state)
        return x + out, conv_state, ssm_state


class SSMLanguageModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.layers = nn.ModuleList([ResidualBlock(cfg, i) for i in range(cfg.n_layers)])
        self.norm_f = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.embed.weight
        self.register_buffer("tokens_seen", torch.zeros((), dtype=torch.long), persistent=False)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(m):
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, std=0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=0.02)

    @property
    def num_params(self):
        return sum(p.numel() for p in self.parameters())

    def forward(self, idx, targets=None):
        if self.training:
            self.tokens_seen += idx.numel()
        x = self.embed(idx)
        for layer in self.layers:
            x = layer(x)
        logits = self.lm_head(self.norm_f(x))
        if targets is None:
            return logits
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
        return logits, loss

    def init_states(self, batch_size):
        cfg = self.cfg
        dev = self.embed.weight.device
        return [
            (torch.zeros(batch_size, cfg.d_inner, cfg.d_conv, device=dev),
             torch.zeros(batch_size, cfg.d_inner, cfg.d_state, device=dev))
            for _ in range(cfg.n_layers)
        ]

    def step(self, token, states):
        x = self.embed(token)
        new_states = []
        for layer, (conv_s, ssm_s) in zip(self.layers, states):
            x, conv_s, ssm_s = layer.step(x, conv_s, ssm_s)
            new_states.append((conv_s, ssm_s))
        return self.lm_head(self.norm_f(x)), new_states

import math

import torch
import torch.nn as nn


class NumericalFeatureTokenizer(nn.Module):
    # x_j -> x_j * W_j + b_j, one (weight, bias) pair per numerical feature
    def __init__(self, n_features, d_token, bias=True):
        super().__init__()
        bound = 1 / math.sqrt(d_token)
        self.weight = nn.Parameter(torch.empty(n_features, d_token).uniform_(-bound, bound))
        self.bias = nn.Parameter(torch.empty(n_features, d_token).uniform_(-bound, bound)) if bias else None

    def forward(self, x_num):
        tokens = self.weight[None] * x_num[..., None]
        if self.bias is not None:
            tokens = tokens + self.bias[None]
        return tokens


class CategoricalFeatureTokenizer(nn.Module):
    def __init__(self, cardinalities, d_token):
        super().__init__()
        self.names = list(cardinalities)
        self.embeddings = nn.ModuleDict({name: nn.Embedding(card, d_token) for name, card in cardinalities.items()})
        self.bias = nn.Parameter(torch.zeros(len(cardinalities), d_token))
        for emb in self.embeddings.values():
            nn.init.uniform_(emb.weight, -1 / math.sqrt(d_token), 1 / math.sqrt(d_token))

    def forward(self, x_cat):
        tokens = [self.embeddings[name](x_cat[:, i]) for i, name in enumerate(self.names)]
        return torch.stack(tokens, dim=1) + self.bias


class CLSToken(nn.Module):
    def __init__(self, d_token):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(d_token).uniform_(-1 / math.sqrt(d_token), 1 / math.sqrt(d_token)))

    def forward(self, tokens):
        cls = self.weight.view(1, 1, -1).expand(tokens.size(0), 1, -1)
        return torch.cat([tokens, cls], dim=1)

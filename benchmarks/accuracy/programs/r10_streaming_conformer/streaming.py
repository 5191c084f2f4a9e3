import torch


class StreamingCache:
    # left-context cache carried between chunks: per-layer (k, v) and conv state
    def __init__(self, cfg, batch_size, device=None, dtype=torch.float32):
        empty = torch.zeros(batch_size, 0, cfg.d_model, device=device, dtype=dtype)
        self.att = [(empty, empty) for _ in range(cfg.n_layers)]
        self.conv = [torch.zeros(batch_size, cfg.d_model, cfg.conv_kernel - 1, device=device, dtype=dtype)
                     for _ in range(cfg.n_layers)]
        self.frames_seen = 0

    def update(self, att, conv, n_frames):
        self.att, self.conv = att, conv
        self.frames_seen += n_frames

    @property
    def context_frames(self):
        return self.att[0][0].size(1)


def stream_utterance(chunk_fn, feats, cfg, chunk_size=None):
    chunk_size = chunk_size or cfg.chunk_size
    cache = StreamingCache(cfg, feats.size(0), feats.device, feats.dtype)
    outputs = []
    for start in range(0, feats.size(1), chunk_size):
        chunk = feats[:, start:start + chunk_size]
        log_probs, att, conv = chunk_fn(chunk, cache.att, cache.conv)
        cache.update(att, conv, chunk.size(1))
        outputs.append(log_probs)
    return torch.cat(outputs, dim=1), cache


def ctc_greedy_decode(log_probs, blank=0):
    best = log_probs.argmax(dim=-1).tolist()
    hyps = []
    for seq in best:
        out, prev = [], None
        for tok in seq:
            if tok != prev and tok != blank:
                out.append(tok)
            prev = tok
        hyps.append(out)
    return hyps


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            cur = min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
            prev, row[j] = row[j], cur
    return row[-1]

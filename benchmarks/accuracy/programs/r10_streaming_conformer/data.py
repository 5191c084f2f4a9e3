import torch


class SyntheticSpeech:
    # each token owns a fixed spectral template; an utterance is a noisy run of tokens
    def __init__(self, n_mels, vocab_size, seed=0, min_dur=5, max_dur=10):
        self.gen = torch.Generator().manual_seed(seed)
        self.vocab_size = vocab_size
        self.min_dur, self.max_dur = min_dur, max_dur
        self.templates = torch.randn(vocab_size, n_mels, generator=self.gen) * 2.0

    def utterance(self, num_frames):
        tokens, frames, t, prev = [], [], 0, 0
        while t < num_frames:
            tok = prev
            while tok == prev:
                tok = int(torch.randint(1, self.vocab_size, (1,), generator=self.gen))
            dur = int(torch.randint(self.min_dur, self.max_dur + 1, (1,), generator=self.gen))
            dur = min(dur, num_frames - t)
            frames.append(self.templates[tok].expand(dur, -1))
            tokens.append(tok)
            t, prev = t + dur, tok
        feats = torch.cat(frames) + 0.5 * torch.randn(num_frames, self.templates.size(1), generator=self.gen)
        return feats, tokens

    def batch(self, batch_size, num_frames):
        feats, targets, target_lens = [], [], []
        for _ in range(batch_size):
            f, toks = self.utterance(num_frames)
            feats.append(f)
            targets.extend(toks)
            target_lens.append(len(toks))
        feats = torch.stack(feats)
        feats = (feats - feats.mean(dim=(1, 2), keepdim=True)) / feats.std(dim=(1, 2), keepdim=True)
        return feats, torch.tensor(targets), torch.tensor(target_lens)

import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, dim=20, hidden=64, classes=4, dropout=0.5):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.ReLU()
        self.dropout = nn.Dropout(dropout)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(self.dropout(self.act(self.fc1(x))))

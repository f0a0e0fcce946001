import torch


def torch_twin(logits):
    return torch.softmax(logits, dim=-1)

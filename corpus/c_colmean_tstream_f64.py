def torch_twin(X):
    return X.mean(dim=0), (X * X).sum(dim=0)

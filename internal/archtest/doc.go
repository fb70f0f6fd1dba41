package archtest

static const float GAIN = 1.0;

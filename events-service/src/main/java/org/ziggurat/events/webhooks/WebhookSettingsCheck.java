package org.ziggurat.events.webhooks;

import jakarta.inject.Singleton;
import org.ziggurat.platform.readiness.SettingsCheck;
import org.ziggurat.platform.readiness.UnsafeSettings;

/** events-service refuses to run in production without its own key for the webhooks' secrets (44 base64 characters). */
@Singleton
public class WebhookSettingsCheck implements SettingsCheck {

    private final WebhookSettings settings;

    WebhookSettingsCheck(WebhookSettings settings) {
        this.settings = settings;
    }

    @Override
    public void check(UnsafeSettings unsafe) {
        unsafe.secret("ziggurat.events.webhooks.secret-key", settings.secretKey(), 44,
                UnsafeSettings.publishedValues("ziggurat.events.webhooks.secret-key"));
    }
}
